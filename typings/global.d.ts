// Globals of the Moddable runtime that the device host uses. Written for Halo
// from the Moddable SDK documentation (xs/includes, documentation/xs).

/** Writes text to the debug console (xsbug, or stdout of a headless runner). */
declare function trace(...values: unknown[]): void;

/**
 * Binds a C function to a method: `native("xs_vector_topk").call(this, ...)`.
 * xsc replaces the call with a host function at compile time (mcconfig always
 * passes `-c`), so the argument must be a string literal.
 */
declare function native(name: string): (...args: any[]) => any;

/** A base class whose instances carry host data freed by the named C destructor. */
declare function Native(name: string): new (...args: any[]) => object;
