// Markdown front matter: a leading block of `key: value` lines between two
// `---` lines. Only flat string values; anything else is left in the body.

export interface FrontMatter {
  fields: { [key: string]: string };
  body: string;
}

const FIELD = /^([a-z_][a-z0-9_]*):[ \t]*(.*)$/;

export function parseFrontMatter(md: string): FrontMatter {
  const text = md.replace(/\r\n/g, "\n");
  if (!text.startsWith("---\n")) return { fields: {}, body: text };
  const end = text.indexOf("\n---", 3);
  if (end < 0 || (text.length > end + 4 && text[end + 4] !== "\n")) return { fields: {}, body: text };
  const fields: { [key: string]: string } = {};
  for (const line of text.slice(4, end).split("\n")) {
    const m = FIELD.exec(line.trim());
    if (m) fields[m[1]] = unquote(m[2].trim());
  }
  return { fields, body: text.slice(end + 5) };
}

/** A front-matter block of the given fields (in order), then the body. */
export function renderFrontMatter(fields: Array<[string, string]>, body: string): string {
  const lines = fields.map(([k, v]) => `${k}: ${v.replace(/[\r\n]+/g, " ")}`);
  return `---\n${lines.join("\n")}\n---\n${body}`;
}

function unquote(value: string): string {
  const q = value[0];
  return (q === '"' || q === "'") && value.length >= 2 && value[value.length - 1] === q ? value.slice(1, -1) : value;
}
