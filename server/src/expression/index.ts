// Public surface of the expression language (implemented by lexer.ts, parser.ts, validate.ts).
export * from './ast';
export * from './api';
export { tokenize, KEYWORDS } from './lexer';
export { utf8Length } from '../core/dynamodb';
export type { Token, TokenType, Keyword } from './lexer';
export { parseExpression, KIND_FIELD, MAX_NESTING } from './parser';
export type { ParseOutput } from './parser';
export { validateRequest, validateExpression, resolvePath, formatPath, containerDepth, exactSum, LIMITS } from './validate';
export type { ResolvedSegment } from './validate';
export { EXPRESSION_FINDINGS } from './findings';
export type { ExpressionFindingId } from './findings';
export { RESERVED_WORDS, isReservedWord } from './reserved-words';
