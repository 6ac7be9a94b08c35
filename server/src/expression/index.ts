// Public surface of the expression language (implemented by lexer.ts, parser.ts, validate.ts).
export * from './ast';
export * from './api';
