/** `team add | list`: operations teams that accounts are created into (docs/interface.md, Operations team). */
import type { Command } from 'commander';
import type { Team } from '../operator/operator.types.js';
import { isoTime, print, printList, withDatabase } from './common.js';

/** Loaded when a command runs: `load`, `sample` and `--help` never load the database drivers. */
const operations = () => import('../operator/teams.service.js');

function teamJson(team: Team) {
  return { name: team.name, created_at: isoTime(team.createdAt) };
}

export function registerTeam(program: Command): void {
  const group = program.command('team').description('manage operations teams');

  group
    .command('add')
    .description('add an operations team')
    .argument('<name>', 'team name, as given in operations_team_name')
    .action(async (name: string, _options: unknown, command: Command) => {
      const { addTeam } = await operations();
      const team = await withDatabase(command, (db) => addTeam(db, name));
      print(command, teamJson(team), `added team "${team.name}"`);
    });

  group
    .command('list')
    .description('list operations teams by name')
    .action(async (_options: unknown, command: Command) => {
      const { listTeams } = await operations();
      const teams = await withDatabase(command, listTeams);
      printList(
        command,
        teams.map(teamJson),
        ['NAME', 'CREATED'],
        teams.map((team) => [team.name, isoTime(team.createdAt)]),
        'no teams',
      );
    });
}
