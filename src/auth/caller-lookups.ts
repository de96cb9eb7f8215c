/**
 * The caller checks of one database, shared by the requests that ask the same one at once
 * (see SharedLookups), never one sent before they asked.
 */
import type { Db } from '../db/database.js';
import { SharedLookups } from '../db/shared-lookups.js';
import { findActiveOrganisation, findCallerSupplier } from './auth.repository.js';

/** Who a check is for: the organisation and key version its token states. */
interface CallerKey {
  organisationId: number;
  keyVersion: number;
}

type ActiveOrganisation = Awaited<ReturnType<typeof findActiveOrganisation>>;
type CallerSupplier = Awaited<ReturnType<typeof findCallerSupplier>>;

/**
 * A request whose body is larger than this runs its checks alone, at once: waiting for a shared
 * check keeps its parsed body alive meanwhile, and a hostile body can take tens of times its
 * size parsed. An account is a few kB.
 */
export const SHARED_CHECK_MAX_BODY = 64 * 1024;
/**
 * The requests waiting for shared checks hold at most this many bytes of declared body between
 * them; a request that would go past it runs its check alone. So what the waits keep alive is
 * bounded whatever the number of connections.
 */
export const SHARED_CHECK_WAITING_BODIES = 512 * 1024;

/** An answer may serve several requests: frozen, so that none can change what another reads. */
function frozen<T>(value: T): T {
  return typeof value === 'object' && value !== null ? Object.freeze(value) : value;
}

/**
 * The caller checks of one database, shared by the requests that ask the same one at once
 * (see SharedLookups): each request still gets an answer read after it asked. Only requests
 * with small bodies wait to share (see SHARED_CHECK_MAX_BODY); the others ask alone. Either
 * way the answer is frozen, so a request never depends on which way it was asked.
 */
class CallerLookups {
  readonly organisations: SharedLookups<[number, number], ActiveOrganisation>;
  readonly suppliers: SharedLookups<[number, number, string], CallerSupplier>;
  readonly #findOrganisation: (
    organisationId: number,
    keyVersion: number,
  ) => Promise<ActiveOrganisation>;
  readonly #findSupplier: (
    organisationId: number,
    keyVersion: number,
    code: string,
  ) => Promise<CallerSupplier>;
  /** The declared body bytes of the requests now waiting for a shared check. */
  #waitingBodies = 0;

  constructor(db: Db) {
    this.#findOrganisation = async (organisationId, keyVersion) =>
      frozen(await findActiveOrganisation(db.kysely, organisationId, keyVersion));
    this.#findSupplier = async (organisationId, keyVersion, code) => {
      const found = await findCallerSupplier(db.kysely, organisationId, keyVersion, code);
      frozen(found?.supplier);
      return frozen(found);
    };
    this.organisations = new SharedLookups(this.#findOrganisation);
    this.suppliers = new SharedLookups(this.#findSupplier);
  }

  /** The caller's organisation if still active; `bodyBytes`: what the request holds meanwhile. */
  organisation(caller: CallerKey, bodyBytes: number | undefined): Promise<ActiveOrganisation> {
    const { organisationId, keyVersion } = caller;
    return this.ask(
      bodyBytes,
      () =>
        this.organisations.lookup(`${organisationId}/${keyVersion}`, organisationId, keyVersion),
      () => this.#findOrganisation(organisationId, keyVersion),
    );
  }

  /** findCallerSupplier for the caller, shared when its body may wait. */
  supplier(
    caller: CallerKey & { bodyBytes: number | undefined },
    code: string,
  ): Promise<CallerSupplier> {
    const { organisationId, keyVersion } = caller;
    return this.ask(
      caller.bodyBytes,
      () =>
        this.suppliers.lookup(
          `${organisationId}/${keyVersion}/${code}`,
          organisationId,
          keyVersion,
          code,
        ),
      () => this.#findSupplier(organisationId, keyVersion, code),
    );
  }

  /**
   * `shared()` when a request holding `bodyBytes` may wait for it, else `alone()`; undefined
   * (a size not known) always asks alone.
   */
  async ask<Result>(
    bodyBytes: number | undefined,
    shared: () => Promise<Result>,
    alone: () => Promise<Result>,
  ): Promise<Result> {
    if (
      bodyBytes === undefined ||
      bodyBytes > SHARED_CHECK_MAX_BODY ||
      this.#waitingBodies + bodyBytes > SHARED_CHECK_WAITING_BODIES
    ) {
      return alone();
    }
    this.#waitingBodies += bodyBytes;
    try {
      return await shared();
    } finally {
      this.#waitingBodies -= bodyBytes;
    }
  }
}

const callerLookups = new WeakMap<Db, CallerLookups>();

/** The shared caller checks of `db`. */
export function callerLookupsOf(db: Db): CallerLookups {
  let lookups = callerLookups.get(db);
  if (!lookups) {
    lookups = new CallerLookups(db);
    callerLookups.set(db, lookups);
  }
  return lookups;
}
