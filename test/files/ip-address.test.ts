// lib/util/ip-address.ts: the host parser files.fetch checks with reads a host exactly as the
// simulator's HTTP client (Node's WHATWG URL) does, and classifies every form numerically.
import assert from "node:assert/strict";
import { formatAddress, isPublicAddress, parseHostAddress, parseResolvedAddress } from "../../lib/util/ip-address.ts";

// [host as written in a URL, the address it is, public?]; undefined: not a valid host.
const TABLE: Array<[string, string | undefined, boolean]> = [
  ["127.0.0.1", "127.0.0.1", false],
  ["0177.0.0.1", "127.0.0.1", false],
  ["0x7f.0.0.1", "127.0.0.1", false],
  ["0X7F.0.0.1", "127.0.0.1", false],
  ["0x7f000001", "127.0.0.1", false],
  ["2130706433", "127.0.0.1", false],
  ["017700000001", "127.0.0.1", false],
  ["127.1", "127.0.0.1", false],
  ["127.0.1", "127.0.0.1", false],
  ["127.0.0.1.", "127.0.0.1", false],
  ["0", "0.0.0.0", false],
  ["012.0.0.1", "10.0.0.1", false],
  ["0xa.0.0.1", "10.0.0.1", false],
  ["167772161", "10.0.0.1", false],
  ["0254.020.0.1", "172.16.0.1", false],
  ["0xac.0x1f.0xff.0xff", "172.31.255.255", false],
  ["0300.0250.0.1", "192.168.0.1", false],
  ["3232235777", "192.168.1.1", false],
  ["0144.0100.0.1", "100.64.0.1", false],
  ["0x64.0x7f.0xff.0xff", "100.127.255.255", false],
  ["0251.0376.0251.0376", "169.254.169.254", false],
  ["0xa9fea9fe", "169.254.169.254", false],
  ["169.254.43518", "169.254.169.254", false],
  ["224.0.0.1", "224.0.0.1", false],
  ["255.255.255.255", "255.255.255.255", false],
  ["[::1]", "0:0:0:0:0:0:0:1", false],
  ["[0:0:0:0:0:0:0:1]", "0:0:0:0:0:0:0:1", false],
  ["[0::1]", "0:0:0:0:0:0:0:1", false],
  ["[::]", "0:0:0:0:0:0:0:0", false],
  ["[0::ffff:127.0.0.1]", "0:0:0:0:0:ffff:7f00:1", false],
  ["[::ffff:7f00:1]", "0:0:0:0:0:ffff:7f00:1", false],
  ["[::ffff:169.254.169.254]", "0:0:0:0:0:ffff:a9fe:a9fe", false],
  ["[::127.0.0.1]", "0:0:0:0:0:0:7f00:1", false],
  ["[64:ff9b::10.0.0.1]", "64:ff9b:0:0:0:0:a00:1", false],
  ["[2002:c0a8:101::1]", "2002:c0a8:101:0:0:0:0:1", false],
  ["[fe80::1]", "fe80:0:0:0:0:0:0:1", false],
  ["[fd12:3456::1]", "fd12:3456:0:0:0:0:0:1", false],
  ["[ff02::1]", "ff02:0:0:0:0:0:0:1", false],
  ["8.8.8.8", "8.8.8.8", true],
  ["0x8.0x8.0x8.0x8", "8.8.8.8", true],
  ["134744072", "8.8.8.8", true],
  ["172.32.0.1", "172.32.0.1", true],
  ["100.128.0.1", "100.128.0.1", true],
  ["[2606:4700::1111]", "2606:4700:0:0:0:0:0:1111", true],
  ["[::ffff:8.8.8.8]", "0:0:0:0:0:ffff:808:808", true],
  ["256.0.0.1", undefined, false],
  ["1.2.3.4.5", undefined, false],
  ["0x100.0.0.1", undefined, false],
  ["08.0.0.1", undefined, false],
  ["1..1", undefined, false],
  ["4294967296", undefined, false],
  ["files.123", undefined, false],
  ["[1::2::3]", undefined, false],
  ["[::ffff:999.0.0.1]", undefined, false],
  ["[1:2:3:4:5:6:7:8:9]", undefined, false],
];

describe("host addresses as the HTTP client reads them", () => {
  it("parses every IPv4 and IPv6 form to one number and classifies it", () => {
    for (const [host, address, isPublic] of TABLE) {
      const parsed = parseHostAddress(host);
      if (address === undefined) {
        assert.equal(parsed, undefined, host);
        continue;
      }
      assert.ok(parsed && parsed.kind !== "name", host);
      assert.equal(formatAddress(parsed), address, host);
      assert.equal(isPublicAddress(parsed), isPublic, host);
    }
  });

  it("agrees with Node's URL parser, which the simulator's HTTP client connects with", () => {
    for (const [host] of TABLE) {
      let nodeHost: string | undefined;
      try {
        nodeHost = new URL(`https://${host}/`).hostname;
      } catch {
        nodeHost = undefined;
      }
      const ours = parseHostAddress(host);
      if (nodeHost === undefined) assert.equal(ours, undefined, `${host}: Node refuses it`);
      else assert.deepEqual(ours, parseHostAddress(nodeHost), `${host}: Node reads ${nodeHost}`);
    }
  });

  it("keeps names as names and reads resolver answers strictly", () => {
    assert.deepEqual(parseHostAddress("Files.Example.com"), { kind: "name", name: "files.example.com" });
    assert.equal(isPublicAddress({ kind: "name", name: "example.com" }), false, "a name is judged only by what it resolves to");
    assert.equal(formatAddress(parseResolvedAddress("10.0.0.7")!), "10.0.0.7");
    assert.equal(formatAddress(parseResolvedAddress("::ffff:10.0.0.7")!), "0:0:0:0:0:ffff:a00:7");
    for (const bad of ["0177.0.0.1", "127.1", "1.2.3.256", "not an address", ""]) assert.equal(parseResolvedAddress(bad), undefined, bad);
  });
});
