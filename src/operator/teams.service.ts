/** Operations teams (docs/interface.md, Operations team): accounts are created into an existing team, named here. */
import type { Db } from '../db/database.js';
import { OperatorError } from '../shared/operator-error.js';
import { displayName } from './operator.rules.js';
import type { Team } from './operator.types.js';
import * as repository from './teams.repository.js';

/** Creates a team; the name is trimmed and must be new. */
export async function addTeam(db: Db, name: string): Promise<Team> {
  const trimmed = displayName('team', name);
  const team = await repository.insertTeam(db.kysely, trimmed, Date.now());
  if (team === undefined) throw new OperatorError(`team "${trimmed}" already exists`);
  return team;
}

/** Every team, ordered by name. */
export function listTeams(db: Db): Promise<Team[]> {
  return repository.listTeams(db.kysely);
}
