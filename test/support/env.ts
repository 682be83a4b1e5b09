/**
 * The environment variables a test file sets, as they were: `restore()` puts each back (unset where
 * it was unset), for the files that change what a function reads from its environment.
 */
export const savedEnv = (...names: string[]): { restore(): void } => {
  const saved = new Map(names.map((name) => [name, process.env[name]]));
  return {
    restore: () => {
      for (const [name, value] of saved) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    },
  };
};
