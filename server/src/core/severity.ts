/** How loud a finding is, in the vocabulary of editors (LSP DiagnosticSeverity) and of `.dynalintrc.json`. */
export type Severity = 'error' | 'warning' | 'info' | 'hint';
export type SeveritySetting = Severity | 'off';
