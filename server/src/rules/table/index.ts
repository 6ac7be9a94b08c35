/** The rules that need the table's definition (RuleContext.tables): silent when the table is unknown. */
import type { Rule } from '../types';
import { consistentReadGsi } from './consistent-read-gsi';
import { filterTableKey } from './filter-table-key';
import { itemKeySchema } from './item-key-schema';
import { keyConditionSchema } from './key-condition-schema';
import { keySchemaMismatch } from './key-schema-mismatch';
import { tableDefinition } from './table-definition';
import { unknownIndex } from './unknown-index';
import { updateTableKey } from './update-table-key';

export const tableRules: Rule[] = [consistentReadGsi, filterTableKey, itemKeySchema, keyConditionSchema, keySchemaMismatch, tableDefinition, unknownIndex, updateTableKey];
