// Sub-agents and routines without a network: the real core, its ProviderRouter and
// adapters over an in-process HttpClient that answers in the OpenAI and Anthropic
// wire formats, and the scheduler on a hand-moved clock. No Node imports: the XS
// run uses it. runAgentsScenario returns a transcript; Node and XS must match.
import { switchableScheduler } from "../support/scheduler.ts";
import { TEST_HOST } from "../support/halo.ts";
import { nextRunAfter } from "../../lib/util/schedule";
import type { ScheduledTurnOutcome } from "../../lib/agents/scheduler.ts";
import { buildCore } from "../../lib/app/core.ts";
import type { HttpClient, HttpClientRequest, HttpClientResponse } from "../../lib/ports.ts";
import { makePrincipal } from "../../lib/registry/principal.ts";
import { decodeUtf8, encodeUtf8 } from "../../lib/util/utf8.ts";
import { portablePorts } from "../support/portable-ports.ts";

const MINUTE = 60000;

/** Answers /responses like OpenAI and /messages like Anthropic, numbering each answer. */
function scriptedProviders(seen: Array<{ url: string; body: any }>): HttpClient {
  let n = 0;
  return {
    request(req: HttpClientRequest): Promise<HttpClientResponse> {
      const body = JSON.parse(typeof req.body === "string" ? req.body : decodeUtf8(req.body!));
      seen.push({ url: req.url, body });
      n++;
      const text = `answer ${n}`;
      const reply = req.url.endsWith("/responses")
        ? {
            id: `resp_${n}`,
            object: "response",
            status: "completed",
            model: "gpt-test",
            output: [{ type: "message", role: "assistant", content: [{ type: "output_text", text }] }],
            usage: { input_tokens: 10, output_tokens: 5 },
          }
        : {
            id: `msg_${n}`,
            type: "message",
            role: "assistant",
            model: "claude-test",
            content: [{ type: "text", text }],
            stop_reason: "end_turn",
            usage: { input_tokens: 10, output_tokens: 5 },
          };
      return Promise.resolve({ status: 200, headers: { "content-type": "application/json" }, body: encodeUtf8(JSON.stringify(reply)) });
    },
  };
}

export async function runAgentsScenario(): Promise<string[]> {
  const out: string[] = [];
  let now = Date.UTC(2026, 0, 5, 9, 0);
  const seen: Array<{ url: string; body: any }> = [];
  const ports = { ...portablePorts(), clock: { now: () => now }, http: scriptedProviders(seen) };
  const scheduled = switchableScheduler({ runScheduledTurn: () => Promise.resolve({ ok: false, error: "no runner yet" }) });
  const core = buildCore(ports, { ...TEST_HOST, subsystems: scheduled.subsystems });
  core.secrets.set("openai", "sk-scenario-openai-1");
  core.secrets.set("anthropic", "sk-scenario-anthropic-1");
  core.priority.set(["openai", "anthropic"]);
  const owner = makePrincipal("owner", "admin", "turn");
  const member = makePrincipal("alice", "user", "mcp");
  const call = async (tag: string, name: string, args: unknown, who = owner): Promise<string> => {
    const r = await core.registry.dispatch(name, args, who);
    out.push(`${tag} ${name} ${r.isError ? "ERROR " : ""}${r.text}`);
    return r.text;
  };
  const idIn = (text: string): string => /\b(sa[0-9a-f]{8}|[rw][0-9a-f]{8})\b/.exec(text)![1];

  // Sub-agents: OpenAI continues by response id, Anthropic by the whole history.
  core.artifacts.saveText(owner, "notes", "brief.md", "Tea is grown in Assam.");
  const a = idIn(await call("s1", "session.spawn", { task: "Summarise tea.", name: "tea", project: "run", attach: ["notes/brief.md"] }));
  await core.agents.settled();
  await call("s2", "session.poll", { id: a });
  await call("s3", "session.tell", { id: a, message: "Shorter, please." });
  await core.agents.settled();
  await call("s4", "session.poll", { id: a });
  const b = idIn(await call("s5", "session.spawn", { task: "Name a herb.", provider: "anthropic" }));
  await core.agents.settled();
  await call("s6", "session.tell", { id: b, message: "Another?" });
  await core.agents.settled();
  for (const s of seen)
    out.push(`req ${s.url} ${JSON.stringify(s.body.previous_response_id ?? null)} ${JSON.stringify(s.body.input ?? s.body.messages)}`);
  await call("s7", "session.list", {});
  await call("s8", "session.poll", { id: a }, member);
  await call("s9", "session.terminate", { id: b });
  out.push(`saved ${core.artifacts.readText(owner, "run", `tea-${a}-2.md`, 0).text.trim()}`);

  // Routines: the approval gate, a wakeup that fails once, the governor.
  const outcomes: ScheduledTurnOutcome[] = [{ ok: false, error: "scripted failure" }];
  scheduled.use({
    runScheduledTurn(principal, request) {
      out.push(`turn ${principal.ns} ${principal.role} scheduled=${principal.scheduled} ${JSON.stringify(request)}`);
      return Promise.resolve(outcomes.shift() ?? { ok: true });
    },
  });
  const r = idIn(
    await call("r1", "loop.create", {
      name: "Brief",
      prompt: "Morning news.",
      schedule: { kind: "weekly", at: "09:30", days: ["mon", "wed"] },
    }),
  );
  await call("r2", "wakeup.set", { minutes: 2, note: "Check the kettle." });
  await call(
    "r3",
    "loop.create",
    { name: "x", prompt: "y", schedule: { kind: "daily", at: "09:00" } },
    makePrincipal("owner", "admin", "turn", true),
  );
  now += 40 * MINUTE;
  await core.scheduler.tick();
  out.push(`approve ${JSON.stringify(core.routines.approve(r).nextRun)}`);
  now += MINUTE;
  await core.scheduler.tick();
  await call("r4", "loop.list", {});
  now = Date.UTC(2026, 0, 7, 9, 30);
  await core.scheduler.tick();
  await call("r5", "loop.list", {});
  out.push(`alerts ${JSON.stringify(core.alerts.list())}`);

  // Next-run arithmetic at an offset, across the week boundary.
  const sunday = Date.UTC(2026, 0, 11, 23, 30);
  out.push(`next ${new Date(nextRunAfter({ kind: "weekly", at: "00:15", days: ["mon"] }, 0, sunday, 60)).toISOString()}`);
  out.push(`next ${new Date(nextRunAfter({ kind: "interval", everySeconds: 900 }, sunday, sunday + 31 * MINUTE)).toISOString()}`);
  return out;
}
