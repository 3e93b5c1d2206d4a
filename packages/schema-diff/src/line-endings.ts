/**
 * A text with LF line endings. Schema files are hashed and generated files compared in this form:
 * a Git checkout with `core.autocrlf` (the default of Windows runners) turns both into CRLF, and
 * the drift check must not call that a change.
 */
export function withLf(text: string): string {
  return text.includes("\r\n") ? text.replace(/\r\n/g, "\n") : text;
}
