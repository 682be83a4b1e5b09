/** Reads a required setting at import time, so a misconfigured function fails its cold start loudly. */
export const requireEnv = (name: string): string => {
  const value = process.env[name];
  if (!value) throw new Error(`Environment variable ${name} is required`);
  return value;
};
