/**
 * Operations team ids by name, remembered once found: no command removes or renames a team,
 * so a name found keeps its id. A name not found is looked up again next time (it may be
 * added meanwhile).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { findTeamId } from '../imports/creation/process-lookup.repository.js';

export class TeamIds {
  readonly #byName = new Map<string, number>();

  /** The id of the team with exactly this name, if there is one. */
  async idOf(db: Kysely<Database>, name: string): Promise<number | undefined> {
    const known = this.#byName.get(name);
    if (known !== undefined) return known;
    const id = await findTeamId(db, name);
    if (id !== undefined) this.#byName.set(name, id);
    return id;
  }
}
