/** `code` made Latin-1 where only comments hold characters above U+00FF; otherwise `code` as it is, after `warn`. */
export function latin1Comments(code: string, file: string, warn?: (message: string) => void): string;
