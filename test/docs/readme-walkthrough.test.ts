/**
 * The README's first migration with curl, request by request, as a reader would send it: the
 * account it writes to account.json and every body it sends, read from README.md itself, so the
 * walkthrough cannot drift from what the service accepts.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { useTestService } from '../helpers/app.js';
import { describeEachDialect } from '../helpers/databases.js';

const README = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** A request of the walkthrough: its method, path and body as the README writes them. */
interface Step {
  method: 'GET' | 'POST';
  path: string;
  body: string | undefined;
}

/** The text of the account.json the walkthrough writes. */
function accountJson(): string {
  const match = /cat > account\.json <<'JSON'\n([\s\S]*?)\nJSON\n/.exec(README);
  if (match?.[1] === undefined) throw new Error('README.md writes no account.json');
  return match[1];
}

/**
 * The shell commands of `text`, one a line, comments left out: continued lines and line breaks
 * within single quotes joined.
 */
function commandsOf(text: string): string[] {
  const commands: string[] = [];
  let open = '';
  for (const line of text.replace(/\\\n/g, ' ').split('\n')) {
    if (open === '' && line.trimStart().startsWith('#')) continue;
    open = open === '' ? line : `${open} ${line.trim()}`;
    // A single quote left open carries the command on to the next line.
    if ((open.match(/'/g)?.length ?? 0) % 2 === 0) {
      commands.push(open);
      open = '';
    }
  }
  return commands;
}

/**
 * The curl commands of the section's shell blocks, in order: those whose body
 * the README writes out (a literal or account.json), and the GETs. A body built by a shell
 * command is left to its own test.
 */
function walkthrough(): Step[] {
  const start = README.indexOf('## A first migration with curl');
  const end = README.indexOf('\n## ', start + 1);
  const blocks = README.slice(start, end).match(/```sh\n[\s\S]*?```/g) ?? [];
  const steps: Step[] = [];
  for (const command of blocks.flatMap(commandsOf)) {
    const path = /curl [^$]*"?\$BASE(\/[^\s"]+)/.exec(command)?.[1];
    if (path === undefined || path === '/v1/graphql/' || command.includes('$(')) continue;
    const literal = /-d '([^']*)'/.exec(command)?.[1];
    const body = command.includes('-d @account.json') ? accountJson() : literal;
    const method = body !== undefined || command.includes('-X POST') ? 'POST' : 'GET';
    steps.push({ method, path, body });
  }
  return steps;
}

it('reads the walkthrough: its account and every request with a body', () => {
  const steps = walkthrough();
  expect(JSON.parse(accountJson())).toMatchObject({ external_account_number: 'EXT-0001' });
  const posts = steps.filter((step) => step.body !== undefined).map((step) => step.path);
  expect(posts).toEqual(
    expect.arrayContaining([
      '/v1/data-import/validate-account/',
      '/v1/data-import/account-import-process/create-or-update/',
      '/v1/data-import/account-import-process/process/',
      '/v1/data-import/historical-statements/create/',
      '/v1/data-import/notes/create/',
      '/v1/data-import/payment-instruction/create/',
      '/v1/data-import/transactions/create/',
    ]),
  );
});

await describeEachDialect('the README walkthrough', (dialect) => {
  const service = useTestService(dialect);

  it('answers every request as the README says, in its order', async () => {
    for (const { method, path, body } of walkthrough()) {
      const response = await service.request({
        method,
        url: path,
        ...(body === undefined
          ? {}
          : { payload: body, headers: { 'content-type': 'application/json' } }),
      });
      const step = `${method} ${path} ${body ?? ''}`;
      if (body !== undefined && JSON.parse(body).dry_run === true) {
        // A dry run that would import says so, and keeps nothing.
        expect(response.json(), step).toMatchObject({ code: 'dry_run_rolled_back' });
      } else {
        expect(response.statusCode, `${step}\n${response.body}`).toBeLessThan(300);
      }
    }
  });

  it('schedules and validates the account as the v2 examples build it', async () => {
    // The README's shell builds this body from account.json with node.
    const payload = {
      ...JSON.parse(accountJson()),
      external_account_number: 'EXT-0002',
      operations_team_name: 'Migrations',
    };
    const response = await service.request({
      method: 'POST',
      url: '/v2/data-import/accounts/',
      payload: { payload, task_params: { is_dry_run: false } },
    });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()).toMatchObject({
      external_account_number: 'EXT-0002',
      status: 'PENDING',
    });
    // Its validate example names the team the same way.
    const validated = await service.request({
      method: 'POST',
      url: '/v2/data-import/accounts/validate/',
      payload: { payload: { ...JSON.parse(accountJson()), operations_team_name: 'Migrations' } },
    });
    expect(validated.statusCode, validated.body).toBe(200);
  });
});
