// The TypeScript type of the value a JSON Schema accepts, so that a tool's
// handler receives arguments typed from its own schema, with no casts. Covers
// the subset tool schemas use: object, string, integer, number, boolean,
// array, enum and const, and `type` given as a list (e.g. ["string", "null"]).

type Primitive<T> = T extends "string"
  ? string
  : T extends "integer" | "number"
    ? number
    : T extends "boolean"
      ? boolean
      : T extends "null"
        ? null
        : T extends "array"
          ? unknown[]
          : T extends "object"
            ? { [key: string]: unknown }
            : unknown;

type RequiredKeys<S> = S extends { required: readonly (infer R)[] } ? R : never;

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type ObjectOf<P, R> = Simplify<
  { -readonly [K in keyof P as K extends R ? K : never]: FromSchema<P[K]> } & {
    -readonly [K in keyof P as K extends R ? never : K]?: FromSchema<P[K]>;
  }
>;

/** The value type of schema `S`. */
export type FromSchema<S> = S extends { const: infer C }
  ? C
  : S extends { enum: readonly (infer E)[] }
    ? E
    : S extends { type: "object"; properties: infer P }
      ? ObjectOf<P, RequiredKeys<S>>
      : S extends { type: "array"; items: infer I }
        ? FromSchema<I>[]
        : S extends { type: readonly (infer T)[] }
          ? Primitive<T>
          : S extends { type: infer T }
            ? Primitive<T>
            : unknown;

/** An input schema as tools declare it: an object with named properties. */
export interface ObjectSchema {
  readonly type: "object";
  readonly properties: { readonly [key: string]: unknown };
  readonly required?: readonly string[];
  readonly additionalProperties?: boolean;
  readonly [key: string]: unknown;
}
