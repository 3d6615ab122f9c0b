// Finding Cashu tokens in free text: a token is a bearer instrument (whoever reads it may spend it), so it
// is kept out of logs, the episodic history and turns that should not see it (docs/wallet.md, "Rails").

/** What a token is replaced with where it must not be kept. */
export const TOKEN_PLACEHOLDER = "[cashu token]";

/** cashuA (base64url JSON) and cashuB (base64url CBOR) tokens, at least 16 characters after the prefix. */
function tokenPattern(): RegExp {
  // Made per call: a top-level global regex keeps lastIndex, which is state (docs/architecture.md).
  return /cashu[AB][A-Za-z0-9_\-+/=]{16,}/g;
}

/** The tokens in `text`, in order (at most `max`). */
export function findCashuTokens(text: string, max = 8): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(tokenPattern())) {
    out.push(m[0]);
    if (out.length >= max) break;
  }
  return out;
}

/** `text` with every token replaced by `placeholder`. */
export function redactCashuTokens(text: string, placeholder: string = TOKEN_PLACEHOLDER): string {
  if (!text.includes("cashu")) return text;
  return text.replace(tokenPattern(), placeholder);
}
