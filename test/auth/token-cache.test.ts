/** Verified tokens are remembered until they expire, and revocation still applies at once. */
import { randomBytes } from 'node:crypto';
import { afterEach, expect, it, vi } from 'vitest';
import { signAccessToken, verifyAccessToken } from '../../src/auth/tokens.js';
import { describeEachDialect } from '../helpers/databases.js';
import { PATHS, useTestService } from '../helpers/app.js';
import { changeOrganisation } from '../helpers/auth.js';

afterEach(() => {
  vi.useRealTimers();
});

it('refuses a remembered token once its expiry passes', async () => {
  const secret = randomBytes(32);
  const now = Math.floor(Date.now() / 1000);
  const { token } = await signAccessToken(
    secret,
    { organisationId: 1, organisationName: 'a', keyVersion: 1 },
    60,
    now,
  );
  expect((await verifyAccessToken(secret, token)).organisationId).toBe(1);
  expect((await verifyAccessToken(secret, token)).organisationId).toBe(1);
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime((now + 61) * 1000);
  await expect(verifyAccessToken(secret, token)).rejects.toMatchObject({ code: 'token_expired' });
});

it('does not accept a token remembered under one secret with another', async () => {
  const { token } = await signAccessToken(
    randomBytes(32),
    {
      organisationId: 1,
      organisationName: 'a',
      keyVersion: 1,
    },
    60,
  );
  await expect(verifyAccessToken(randomBytes(32), token)).rejects.toMatchObject({
    code: 'invalid_token',
  });
});

await describeEachDialect('remembered tokens and revocation', (dialect) => {
  const service = useTestService(dialect);

  it('stops a used token at once when its organisation is disabled', async () => {
    const url = PATHS.all('DEMO');
    expect((await service.request({ method: 'GET', url })).statusCode).toBe(200);
    await changeOrganisation(service.db, service.organisationId, { enabled: 0 });
    const refused = await service.request({ method: 'GET', url });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().code).toBe('invalid_token');
  });
});
