// For XS entries: print a scenario's transcript as `T <json>` lines, then END; a failure exits 1.
declare function print(...args: unknown[]): void;
declare function exit(code: number): void;

export function printTranscript(run: () => Promise<string[]>): void {
  run().then(
    (transcript) => {
      for (const line of transcript) print(`T ${JSON.stringify(line)}`);
      print("END");
    },
    (e) => {
      print(`FAILED ${e instanceof Error ? e.stack || e.message : String(e)}`);
      exit(1);
    },
  );
}
