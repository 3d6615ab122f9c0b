import { DOCS_SEARCH_MAX_HITS, DOCS_SNIPPET_CHARS } from "../limits";
import { snippetAround } from "../util/text";

export interface DocsFile {
  slug: string;
  title: string;
}

export interface DocsSection {
  /** `<file-slug>#<heading-slug>`, unique in the pack. */
  id: string;
  file: string;
  title: string;
  body: string;
}

/** The documentation compiled into the firmware by tools/gen-docs-pack.ts. */
export interface DocsPack {
  files: DocsFile[];
  sections: DocsSection[];
}

export interface DocsHit {
  id: string;
  title: string;
  snippet: string;
}

/** Lower-case words of a query: letters and digits, at most 8 of them. */
export function queryTerms(query: string): string[] {
  const terms = query
    .toLowerCase()
    .split(/[^0-9A-Za-z\u00C0-\uFFFF_-]+/)
    .filter((t) => t.length > 0);
  return terms.slice(0, 8);
}

/** Each section's title and body in lower case, as the search reads them. */
export function lowerSections(pack: DocsPack): readonly string[] {
  return pack.sections.map((s) => (s.title + "\n" + s.body).toLowerCase());
}

/** Read-only access to a docs pack: list, keyword search, read by id. */
export class DocsLibrary {
  private readonly pack: DocsPack;
  private readonly lowered: readonly string[];

  /** `lowered` is lowerSections(pack), made ahead of time where it can be (see lib/store/firmware-docs.ts). */
  constructor(pack: DocsPack, lowered: readonly string[] = lowerSections(pack)) {
    this.pack = pack;
    this.lowered = lowered;
  }

  files(): Array<DocsFile & { sections: number }> {
    return this.pack.files.map((f) => ({
      ...f,
      sections: this.pack.sections.filter((s) => s.file === f.slug).length,
    }));
  }

  sectionsOf(fileSlug: string): DocsSection[] | undefined {
    if (!this.pack.files.some((f) => f.slug === fileSlug)) return undefined;
    return this.pack.sections.filter((s) => s.file === fileSlug);
  }

  read(id: string): DocsSection | undefined {
    return this.pack.sections.find((s) => s.id === id);
  }

  /** Sections whose title and body contain every term, best first (title matches weigh more). */
  search(terms: string[]): DocsHit[] {
    if (terms.length === 0) return [];
    const scored: Array<{ index: number; score: number }> = [];
    this.lowered.forEach((text, index) => {
      let score = 0;
      const title = this.pack.sections[index].title.toLowerCase();
      for (const term of terms) {
        const count = countOf(text, term);
        if (count === 0) return;
        score += count + (title.indexOf(term) >= 0 ? 10 : 0);
      }
      scored.push({ index, score });
    });
    scored.sort((a, b) => b.score - a.score || a.index - b.index);
    return scored.slice(0, DOCS_SEARCH_MAX_HITS).map(({ index }) => {
      const s = this.pack.sections[index];
      return { id: s.id, title: s.title, snippet: snippetAround(s.body, terms[0], DOCS_SNIPPET_CHARS) };
    });
  }

  /** Up to three ids closest to `id`, for an honest "did you mean". */
  nearestIds(id: string): string[] {
    const probe = id.slice(0, 128).toLowerCase();
    return this.pack.sections
      .map((s) => ({ id: s.id, d: editDistance(probe, s.id.toLowerCase()) }))
      .sort((a, b) => a.d - b.d || (a.id < b.id ? -1 : 1))
      .slice(0, 3)
      .map((x) => x.id);
  }
}

function countOf(text: string, term: string): number {
  let n = 0;
  for (let at = text.indexOf(term); at >= 0 && n < 1000; at = text.indexOf(term, at + term.length)) n++;
  return n;
}

/** Levenshtein distance with two rows. */
function editDistance(a: string, b: string): number {
  let prev = new Array<number>(b.length + 1);
  let cur = new Array<number>(b.length + 1);
  for (let j = 0; j <= b.length; j++) prev[j] = j;
  for (let i = 1; i <= a.length; i++) {
    cur[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost);
    }
    const t = prev;
    prev = cur;
    cur = t;
  }
  return prev[b.length];
}
