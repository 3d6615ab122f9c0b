// XS entry for test/xs/frozen-lib.test.ts: run after every lib/ module was loaded and frozen.
declare function print(...args: unknown[]): void;

print("END");
