// Which slot holds content id `id` of namespace `ns`: an open-addressing hash
// table with linear probing over typed arrays, so the XS heap holds no map
// entry per memory (the store's is in its arena memory, store-arrays.ts; the
// lexical index keeps one per namespace with no nsIndex, lexical.ts). The
// table has two cells per slot of capacity; a cell holds slot + 1 (0: empty).
// The key of a cell is read from the ids (and nsIndex) arrays at that slot, so
// the table holds no keys of its own. Removal shifts the probe run back (no
// tombstones).

/** The arrays a lookup reads; without nsIndex every key is in namespace 0. */
export interface SlotKeys {
  ids: Uint32Array;
  nsIndex?: Uint16Array;
  slotTable: Int32Array;
}

/** Cells per slot of capacity: the table is at most half full. */
export const SLOT_TABLE_CELLS = 2;

function home(table: Int32Array, ns: number, id: number): number {
  return (Math.imul(id ^ Math.imul(ns + 1, 0x9e3779b1), 0x85ebca6b) >>> 0) % table.length;
}

/** The cell holding (ns, id), or the empty cell where it would go. */
function cellOf(keys: SlotKeys, ns: number, id: number): number {
  const table = keys.slotTable;
  let cell = home(table, ns, id);
  for (;;) {
    const held = table[cell];
    if (held === 0 || (keys.ids[held - 1] === id && (keys.nsIndex === undefined || keys.nsIndex[held - 1] === ns))) return cell;
    cell = cell + 1 === table.length ? 0 : cell + 1;
  }
}

/** The slot of (ns, id), or -1. */
export function findSlot(keys: SlotKeys, ns: number, id: number): number {
  if (keys.slotTable.length === 0) return -1;
  return keys.slotTable[cellOf(keys, ns, id)] - 1;
}

/** Records that `slot` holds (ns, id): a new key, or one that moved to `slot`. Its ids and nsIndex are already set or still read (ns, id). */
export function setSlot(keys: SlotKeys, ns: number, id: number, slot: number): void {
  keys.slotTable[cellOf(keys, ns, id)] = slot + 1;
}

/** Forgets (ns, id); the slots of the other keys must still hold their keys. */
export function deleteSlot(keys: SlotKeys, ns: number, id: number): void {
  const table = keys.slotTable;
  const size = table.length;
  let hole = cellOf(keys, ns, id);
  if (table[hole] === 0) return;
  table[hole] = 0;
  // Move back every later cell of the run whose home is not between the hole and it (cyclically).
  let cell = hole;
  for (;;) {
    cell = cell + 1 === size ? 0 : cell + 1;
    const held = table[cell];
    if (held === 0) return;
    const want = home(table, keys.nsIndex === undefined ? 0 : keys.nsIndex[held - 1], keys.ids[held - 1]);
    const stays = hole <= cell ? hole < want && want <= cell : hole < want || want <= cell;
    if (stays) continue;
    table[hole] = held;
    table[cell] = 0;
    hole = cell;
  }
}

/** Fills an empty table with the store's slots [0, count). */
export function fillSlots(keys: Required<SlotKeys>, count: number): void {
  for (let slot = 0; slot < count; slot++) setSlot(keys, keys.nsIndex[slot], keys.ids[slot], slot);
}
