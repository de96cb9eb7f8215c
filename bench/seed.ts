/** Seeding the database directly, under the service, for the scenarios that need many rows. */
/**
 * Seeds rows straight into the database `databaseUrl` names, with `sqlite` (given the file's
 * path) or `postgres` (given the URL); returns the seconds it took.
 */
export async function seedTimed(
  databaseUrl: string,
  sqlite: (path: string) => void,
  postgres: (url: string) => Promise<void>,
): Promise<number> {
  const started = performance.now();
  if (databaseUrl.startsWith('sqlite:')) sqlite(databaseUrl.slice('sqlite:'.length));
  else await postgres(databaseUrl);
  return (performance.now() - started) / 1000;
}
