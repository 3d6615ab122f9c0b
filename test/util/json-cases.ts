// Values for the toJson tests: frozen (preloaded-looking) schemas, arrays, dates and scalars.
export function jsonCases(): Array<[unknown, number | undefined]> {
  const schema = Object.freeze({ type: "object", properties: Object.freeze({ a: Object.freeze({ type: "string" }) }) });
  const value = { tools: Object.freeze([schema, 1, "x", null]), at: new Date(0), n: 2, nested: [[{ deep: [true] }]] };
  return [
    [value, undefined],
    [value, 2],
    ["s", undefined],
    [[schema, schema], undefined],
  ];
}
