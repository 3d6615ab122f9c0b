import assert from "node:assert/strict";
import { Resolver } from "node:dns/promises";
import { createSocket } from "node:dgram";
import { startDnsResponder, type DnsResponder } from "../../hosts/sim/dns-responder.ts";
import { answerDns, DNS_ANSWER_TTL_S, parseDnsQuery, RCODE_FORMERR, RCODE_NOTIMP } from "../../lib/net/dns.ts";

const hex = (s: string): Uint8Array => Uint8Array.from((s.replace(/\s+/g, "").match(/../g) ?? []).map((h) => parseInt(h, 16)));
const toHex = (b: Uint8Array): string => Array.from(b, (x) => x.toString(16).padStart(2, "0")).join(" ");

// RFC 1035 6.2.1: the standard query for SRI-NIC.ARPA, QTYPE=A, as 4.1 lays it out:
// ID, flags (RD), QDCOUNT=1, then 7 "SRI-NIC" 4 "ARPA" 0, QTYPE 1, QCLASS 1.
const SRI_NIC_QUERY = hex("1234 0100 0001 0000 0000 0000 07 5352492d4e4943 04 41525041 00 0001 0001");

describe("captive DNS answers (RFC 1035)", () => {
  it("parses the RFC 1035 example query", () => {
    const q = parseDnsQuery(SRI_NIC_QUERY);
    assert.ok(q?.question);
    assert.equal(q.id, 0x1234);
    assert.equal(q.recursionDesired, true);
    assert.deepEqual(
      { name: q.question.name, type: q.question.type, class: q.question.class },
      { name: "sri-nic.arpa", type: 1, class: 1 },
    );
  });

  it("answers it with the portal's address, byte for byte", () => {
    const reply = answerDns(SRI_NIC_QUERY, "26.0.0.73");
    assert.ok(reply);
    const expected =
      "12 34 85 00 00 01 00 01 00 00 00 00 " + // QR AA RD, NOERROR, 1 question, 1 answer
      "07 53 52 49 2d 4e 49 43 04 41 52 50 41 00 00 01 00 01 " + // the question, copied
      `c0 0c 00 01 00 01 00 00 00 ${DNS_ANSWER_TTL_S.toString(16)} 00 04 1a 00 00 49`; // pointer to it, A, IN, TTL, 26.0.0.73
    assert.equal(toHex(reply), expected);
  });

  it("gives AAAA an empty NOERROR answer so clients use IPv4", () => {
    const aaaa = SRI_NIC_QUERY.slice();
    aaaa[aaaa.length - 3] = 28;
    const reply = answerDns(aaaa, "192.168.4.1");
    assert.ok(reply);
    assert.equal(reply[3], 0);
    assert.equal(reply[7], 0, "no answers");
    assert.equal(reply.length, SRI_NIC_QUERY.length);
  });

  it("refuses malformed and non-query messages with the right code, and drops what it cannot answer", () => {
    assert.equal(answerDns(hex("1234 0100 0001"), "10.0.0.1"), undefined, "shorter than a header");
    const response = SRI_NIC_QUERY.slice();
    response[2] |= 0x80;
    assert.equal(answerDns(response, "10.0.0.1"), undefined, "a response is never answered");
    const notify = SRI_NIC_QUERY.slice();
    notify[2] = 0x20; // opcode 4
    assert.equal(answerDns(notify, "10.0.0.1")?.[3], RCODE_NOTIMP);
    const truncated = SRI_NIC_QUERY.slice(0, 20);
    assert.equal(answerDns(truncated, "10.0.0.1")?.[3], RCODE_FORMERR);
    const longLabel = hex("0001 0000 0001 0000 0000 0000 40" + "61".repeat(64) + "00 0001 0001");
    assert.equal(answerDns(longLabel, "10.0.0.1")?.[3], RCODE_FORMERR);
    const loop = hex("0001 0000 0001 0000 0000 0000 c00c 0001 0001");
    assert.equal(answerDns(loop, "10.0.0.1")?.[3], RCODE_FORMERR, "a pointer loop");
    const two = SRI_NIC_QUERY.slice();
    two[5] = 2;
    assert.equal(answerDns(two, "10.0.0.1")?.[3], RCODE_FORMERR);
    assert.throws(() => answerDns(SRI_NIC_QUERY, "::1"), /IPv4/);
  });

  it("survives random bytes without throwing", () => {
    let seed = 7;
    const next = (): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff;
      return seed;
    };
    for (let n = 0; n < 2000; n++) {
      const len = next() % 80;
      const b = new Uint8Array(len);
      for (let i = 0; i < len; i++) b[i] = next() & 0xff;
      answerDns(b, "192.168.4.1");
    }
  });
});

describe("the simulator's DNS responder over UDP on loopback", () => {
  let dns: DnsResponder;
  before(async () => {
    dns = await startDnsResponder({ address: "192.168.4.1" });
  });
  after(() => dns.close());

  const resolver = (): Resolver => {
    const r = new Resolver({ timeout: 2000, tries: 1 });
    r.setServers([`127.0.0.1:${dns.port}`]);
    return r;
  };

  it("answers a real resolver's A queries for any name with the portal's address", async () => {
    for (const name of ["connectivitycheck.gstatic.com", "captive.apple.com", "www.msftconnecttest.com", "halo.local"]) {
      assert.deepEqual(await resolver().resolve4(name), ["192.168.4.1"]);
    }
    const ttl = await resolver().resolve4("example.org", { ttl: true });
    assert.deepEqual(ttl, [{ address: "192.168.4.1", ttl: DNS_ANSWER_TTL_S }]);
  });

  it("answers AAAA with no data", async () => {
    await assert.rejects(resolver().resolve6("example.org"), (e: NodeJS.ErrnoException) => e.code === "ENODATA");
  });

  it("drops garbage and keeps serving", async () => {
    const socket = createSocket("udp4");
    await new Promise<void>((ok) => socket.send(Uint8Array.of(1, 2, 3), dns.port, "127.0.0.1", () => ok()));
    await new Promise<void>((ok) => socket.send(new Uint8Array(600), dns.port, "127.0.0.1", () => ok()));
    socket.close();
    await new Promise((ok) => setTimeout(ok, 50));
    assert.ok(dns.counts.dropped >= 2);
    assert.deepEqual(await resolver().resolve4("still.here"), ["192.168.4.1"]);
  });
});
