/**
 * table-definition: a table definition that could not be read (a template with a syntax error, a key schema built
 * by an intrinsic or a variable). Reported once, as information, in the definition's own file: the caller (language
 * service, CLI) hands the table index's problems for the document to the run (`RunConfig.definitionProblems`), so
 * they are findings of the document like any other (severity, suppression, one set of diagnostics per document).
 * Requests against that table are linted as if it were unknown.
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
  check: (ctx) => (ctx.definitionProblems ?? []).map((p) => ({ ruleId: TABLE_DEFINITION, message: p.message, range: p.range })),
};
