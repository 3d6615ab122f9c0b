import { droppedReason, validateDeviceActions, type ValidationContext } from "./actions";
import type { DeviceActuator } from "./actuator";

export interface DeviceArrayLine {
  /** Index of the element; for elements past the bound, the first such index. */
  index: number;
  ok: boolean;
  text: string;
}

/**
 * Runs a turn's end-of-turn device[] array: validates every element (at most
 * MAX_DEVICE_ACTIONS are read), carries out the allowed ones in order, and
 * returns one line per element (plus one for any elements past the bound).
 */
export async function runDeviceArray(
  items: unknown,
  ctx: Omit<ValidationContext, "midTurn">,
  actuator: DeviceActuator,
): Promise<DeviceArrayLine[]> {
  const report = validateDeviceActions(items, { ...ctx, midTurn: false });
  const lines: DeviceArrayLine[] = [];
  for (const v of report.verdicts) {
    if (!v.allowed || !v.action) lines.push({ index: v.index, ok: false, text: v.reason! });
    else {
      const outcome = await actuator.apply(v.action, ctx.principal);
      lines.push({ index: v.index, ok: outcome.ok, text: outcome.text });
    }
  }
  if (report.dropped > 0) lines.push({ index: report.verdicts.length, ok: false, text: droppedReason(report.dropped) });
  return lines;
}
