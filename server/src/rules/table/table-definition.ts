/**
 * table-definition: a table definition that could not be read (a template with a syntax error, a key schema built
 * by an intrinsic or a variable). Reported once, as information, in the definition's own file, by the language
 * server and the CLI from the table index; requests against that table are linted as if it were unknown. This
 * registered rule carries the id, docs and severity; it checks no request.
 */
import { DOCS_BASE, Rule } from '../types';

export const TABLE_DEFINITION = 'table-definition';

export const tableDefinition: Rule = {
  id: TABLE_DEFINITION,
  meta: {
    description: 'A table definition (template, CDK, Terraform, CreateTable, .dynalintrc.json) that could not be read, so requests against it are linted without its key schema.',
    docs: `${DOCS_BASE}/${TABLE_DEFINITION}.md`,
    defaultSeverity: 'info',
    fixable: false,
    category: 'correctness',
  },
  check: () => [],
};
