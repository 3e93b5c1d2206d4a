// Masking of credentials in error messages (the REST executor and the client). Everything here
// runs only while an error is being built, never on the success path of a request.

/** What a credential is replaced with. */
export const MASK = "***";

/** Query parameter and header names whose values are credentials (api_key, token, x-api-key, authorization, cookie, …). */
const SECRET_NAME = /key|token|secret|passw|pwd|auth|signature|^sig$|credential|session|cookie|jwt/i;

/** Exact values shorter than this are not masked one by one (masking "ab" everywhere wrecks a message); URL userinfo and secret query parameters are masked whatever their length. */
const MIN_SECRET_LENGTH = 4;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/**
 * The credential values found in request headers and a URL: secret header values (the part after
 * the scheme for `Bearer x`, the part after the provider for `openai:x`, each cookie's value), the
 * userinfo password and secret query values, as sent and percent-encoded.
 */
export function secretsOf(headers?: Headers | Record<string, string>, url?: URL): string[] {
  const found: string[] = [];
  const add = (value: string) => {
    const trimmed = value.trim();
    if (trimmed.length < MIN_SECRET_LENGTH) return;
    found.push(trimmed);
    const encoded = encodeURIComponent(trimmed);
    if (encoded !== trimmed) found.push(encoded);
  };
  const entries = headers === undefined ? [] : headers instanceof Headers ? [...headers] : Object.entries(headers);
  for (const [name, raw] of entries) {
    if (typeof raw !== "string" || !isSecretName(name)) continue;
    const value = raw.trim();
    if (/cookie/i.test(name)) {
      for (const pair of value.split(";")) add(pair.slice(pair.indexOf("=") + 1));
      continue;
    }
    const scheme = /^[A-Za-z][\w-]*\s+(\S[^]*)$/.exec(value) ?? /^[\w.-]+:(\S+)$/.exec(value);
    add(scheme ? scheme[1]! : value);
  }
  if (url) {
    if (url.password) add(safeDecode(url.password));
    for (const [name, value] of url.searchParams) if (isSecretName(name)) add(value);
  }
  return found;
}

/**
 * `text` with every one of `secrets` replaced by `***`, and, wherever a URL appears in it, the
 * userinfo password and the values of secret query (or fragment) parameters masked too.
 */
export function redact(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const secret of [...secrets].sort((a, b) => b.length - a.length)) if (out.includes(secret)) out = out.split(secret).join(MASK);
  out = out.replace(/(\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#:@"']*):[^\s/?#@"']*@/gi, `$1:${MASK}@`);
  return out.replace(/([?&#])([^\s=&#?"']+)=([^\s&#"']*)/g, (whole, sep: string, name: string, value: string) => (value && value !== MASK && isSecretName(safeDecode(name)) ? `${sep}${name}=${MASK}` : whole));
}

/** At most `max` characters of `text`, with a marker saying how much was cut. */
export function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length - max} more characters)`;
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
