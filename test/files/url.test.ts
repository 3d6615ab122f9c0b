// lib/util/url.ts: the URL parser files.fetch checks every hop with (XS has no URL global).
import assert from "node:assert/strict";
import { formatHttpUrl, parseHttpUrl, resolveLocation, type HttpUrl } from "../../lib/util/url.ts";

const parsed = (s: string): HttpUrl => {
  const u = parseHttpUrl(s);
  assert.equal(typeof u, "object", `${s}: ${String(u)}`);
  return u as HttpUrl;
};

describe("http URL parsing", () => {
  it("parses scheme, host, port and path, dropping the fragment", () => {
    assert.deepEqual(parsed("HTTPS://Files.Example.com:8443/a/b.md?x=1#frag"), {
      scheme: "https",
      host: "files.example.com",
      port: 8443,
      path: "/a/b.md?x=1",
    });
    assert.deepEqual(parsed("https://example.com"), { scheme: "https", host: "example.com", port: undefined, path: "/" });
    assert.deepEqual(parsed("https://example.com?q"), { scheme: "https", host: "example.com", port: undefined, path: "/?q" });
    assert.deepEqual(parsed("https://[::1]:8080/x"), { scheme: "https", host: "[::1]", port: 8080, path: "/x" });
    assert.equal(formatHttpUrl(parsed("https://a.example:444/p?q")), "https://a.example:444/p?q");
  });

  it("rejects what is not a plain http(s) URL, with a reason", () => {
    const cases: Array<[string, string]> = [
      ["example.com/a", "the URL has no scheme"],
      ["ftp://example.com/a", "only https URLs are allowed"],
      ["javascript:alert(1)", "only https URLs are allowed"],
      ["https:/example.com", "the URL has no host"],
      ["https://user:pw@example.com/", "a URL with a user name or password is not allowed"],
      ["https://exa mple.com/", "the URL contains spaces, control characters or backslashes"],
      ["https://example.com\\@evil.com/", "the URL contains spaces, control characters or backslashes"],
      ["https://example.com:99999/", "the URL's port is out of range"],
      ["https://example.com:abc/", "the URL's port is not a number"],
      ["https:///path", "the URL's host name is not valid"],
      ["https://exa_mple.com/", "the URL's host name is not valid"],
      ["https://-bad.com/", "the URL's host name is not valid"],
    ];
    for (const [url, reason] of cases) assert.equal(parseHttpUrl(url), reason, url);
  });

  it("resolves redirect locations of every form, removing dot segments", () => {
    const base = parsed("https://a.example/dir/sub/file.md?x");
    const r = (loc: string): string => formatHttpUrl(resolveLocation(base, loc) as HttpUrl);
    assert.equal(r("https://b.example/x"), "https://b.example/x");
    assert.equal(r("//c.example/y"), "https://c.example/y");
    assert.equal(r("/root.md"), "https://a.example/root.md");
    assert.equal(r("sibling.md?y=2"), "https://a.example/dir/sub/sibling.md?y=2");
    assert.equal(r("../up.md"), "https://a.example/dir/up.md");
    assert.equal(r("../../../../../top.md"), "https://a.example/top.md");
    assert.equal(r("./here/"), "https://a.example/dir/sub/here/");
    assert.equal(resolveLocation(base, "  "), "the redirect has no location");
    assert.equal(resolveLocation(base, "gopher://x/"), "only https URLs are allowed");
  });
});
