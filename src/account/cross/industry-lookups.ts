/**
 * Industry codes of the supply side looked up in the platform's reference data: market
 * participants, time pattern regimes, agent contracts and Priority Services Register needs.
 * Each value is looked up only once it passed its own checks (its shape, for MPIDs and TPRs),
 * so a refused value is never reported twice.
 *
 * Readings chosen (the published example passes all of them):
 * - An MPID is found when the platform has a participant of that id in the meter point's
 *   market playing the field's role: `mpid` SUPPLIER, gas `shipper_mpid` SHIPPER,
 *   `dc_to_appoint` and `agents.dc_contract.agent_mpid` DC, `agents.da_contract.agent_mpid` DA,
 *   `mop_to_appoint` and `agents.mop_contract.agent_mpid` MOP, gas `mam_to_appoint` MAM.
 * - A TPR is looked up on registers and, under the same code, on EAC entries (both name a
 *   regime of the market's data).
 * - An agent's `contract_reference` is the code of an agent contract; where the platform holds
 *   the contract's agent MPID or service references, the payload's must be the same ones.
 * - An agent contract giving no `contract_reference` but a `service_reference` or
 *   `service_level_reference` is looked up by them: among the platform's agent contracts (every
 *   entry is a contract in force), those holding each service reference given, and no other
 *   agent MPID than the one given. None is `agent_contract_reference_does_not_exist` at the
 *   first service reference given; several are `multiple_active_agent_contract_references` at
 *   the contract, which names none of them in particular. A contract named by its reference is
 *   one entry of the catalogue, so it is never ambiguous.
 * - A PSR code is found when the platform has it for that fuel or for both (no supply type).
 *   A description, when given, is the description of one of its codes' entries (case and outer
 *   spaces aside). A need is temporary when an entry of one of its codes says so; it then needs
 *   `effective_to`.
 */
import { fail, isObject, type Parent, type Run } from '../../payload/validators.js';
import { referenceEntries, referenceEntry } from '../platform.js';
import type { ObjectRule, ObjectRules } from './object-rule.js';

type SupplyType = 'ELECTRICITY' | 'GAS';
type Role = 'SUPPLIER' | 'SHIPPER' | 'MOP' | 'DC' | 'DA' | 'MAM';

const PARTICIPANT = 'market_participant_not_found';

/** `out[field]`, when it passed its own checks, is a participant of `market` with `role`. */
function checkParticipant(
  run: Run,
  out: Parent,
  field: string,
  at: string,
  market: SupplyType,
  role: Role,
): void {
  const mpid = out[field];
  if (typeof mpid !== 'string') return;
  const participant = referenceEntry(run, 'market_participant', mpid);
  if (participant?.supply_type === market && participant.roles.includes(role)) return;
  fail(run, at, PARTICIPANT, `The platform has no ${market} ${role} with this id.`);
}

const AGENT_ROLES = [
  ['dc_contract', 'DC'],
  ['da_contract', 'DA'],
  ['mop_contract', 'MOP'],
] as const;

const CONTRACT_MISSING = 'agent_contract_reference_does_not_exist';
const CONTRACT_AMBIGUOUS = 'multiple_active_agent_contract_references';
const SERVICE_FIELDS = ['service_reference', 'service_level_reference'] as const;

/** How many of the platform's contracts the service references given match: 0, 1 or 2 (more). */
function contractsMatching(run: Run, contract: Parent): number {
  const mpid = contract.agent_mpid;
  let found = 0;
  for (const [, known] of referenceEntries(run, 'agent_contract_reference')) {
    if (typeof mpid === 'string' && known.agent_mpid !== undefined && known.agent_mpid !== mpid) {
      continue;
    }
    const matches = SERVICE_FIELDS.every((field) => {
      const given = contract[field];
      return typeof given !== 'string' || given === known[field];
    });
    if (matches && ++found > 1) return found;
  }
  return found;
}

/** An agent contract without a reference, found by its service references alone. */
function checkUnnamedContract(run: Run, contract: Parent, at: string): void {
  const first = SERVICE_FIELDS.find((field) => typeof contract[field] === 'string');
  if (first === undefined) return;
  const found = contractsMatching(run, contract);
  if (found === 0) {
    fail(run, `${at}${first}`, CONTRACT_MISSING, 'The platform has no contract of these services.');
  } else if (found > 1) {
    fail(
      run,
      at.slice(0, -1),
      CONTRACT_AMBIGUOUS,
      'Several of the platform’s contracts in force have these services: give the contract_reference.',
    );
  }
}

/** The agent contract named, and what the platform holds of it, agree. */
function checkContract(run: Run, contract: Parent, at: string): void {
  const reference = contract.contract_reference;
  if (typeof reference !== 'string') {
    checkUnnamedContract(run, contract, at);
    return;
  }
  const known = referenceEntry(run, 'agent_contract_reference', reference);
  const mpid = contract.agent_mpid;
  if (
    known === undefined ||
    (known.agent_mpid !== undefined && typeof mpid === 'string' && mpid !== known.agent_mpid)
  ) {
    fail(run, `${at}contract_reference`, CONTRACT_MISSING, 'The platform has no such contract.');
    return;
  }
  for (const field of SERVICE_FIELDS) {
    const given = contract[field];
    if (typeof given === 'string' && known[field] !== undefined && given !== known[field]) {
      fail(run, `${at}${field}`, CONTRACT_MISSING, `The contract has another ${field}.`);
    }
  }
}

const electricityMeterPoint: ObjectRule = {
  codes: [PARTICIPANT, CONTRACT_MISSING, CONTRACT_AMBIGUOUS],
  check: (out, prefix, run) => {
    checkParticipant(run, out, 'mpid', `${prefix}mpid`, 'ELECTRICITY', 'SUPPLIER');
    checkParticipant(run, out, 'dc_to_appoint', `${prefix}dc_to_appoint`, 'ELECTRICITY', 'DC');
    checkParticipant(run, out, 'mop_to_appoint', `${prefix}mop_to_appoint`, 'ELECTRICITY', 'MOP');
    const agents = out.agents;
    if (!isObject(agents)) return;
    for (const [key, role] of AGENT_ROLES) {
      const contract = agents[key];
      if (!isObject(contract)) continue;
      const at = `${prefix}agents.${key}.`;
      checkParticipant(run, contract, 'agent_mpid', `${at}agent_mpid`, 'ELECTRICITY', role);
      checkContract(run, contract, at);
    }
  },
};

const gasMeterPoint: ObjectRule = {
  codes: [PARTICIPANT],
  check: (out, prefix, run) => {
    checkParticipant(run, out, 'mpid', `${prefix}mpid`, 'GAS', 'SUPPLIER');
    checkParticipant(run, out, 'shipper_mpid', `${prefix}shipper_mpid`, 'GAS', 'SHIPPER');
    checkParticipant(run, out, 'mam_to_appoint', `${prefix}mam_to_appoint`, 'GAS', 'MAM');
  },
};

/** The object's `tpr`, once it passed its own checks, is a regime the platform knows. */
const knownTpr: ObjectRule = {
  codes: ['tpr_not_found'],
  check: (out, prefix, run) => {
    const tpr = out.tpr;
    if (typeof tpr !== 'string' || referenceEntry(run, 'tpr', tpr) !== undefined) return;
    fail(run, `${prefix}tpr`, 'tpr_not_found', 'The platform has no such time pattern regime.');
  },
};

const PSR_FIELDS = [
  ['elec_industry_code', 'ELECTRICITY', 'electricity_psr_record_not_found'],
  ['gas_industry_code', 'GAS', 'gas_psr_record_not_found'],
] as const;

const sameText = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** A PSR need's codes, its description and its end, against the platform's PSR codes. */
const energyPsr: ObjectRule = {
  codes: [
    ...PSR_FIELDS.map(([, , code]) => code),
    'psr_record_description_not_found',
    'temporary_psr_does_not_have_end_date',
  ],
  check: (out, prefix, run, input) => {
    const found: { description: string; temporary?: boolean }[] = [];
    let missing = false;
    for (const [field, market, code] of PSR_FIELDS) {
      const value = out[field];
      // Empty is the published default: no code of that fuel.
      if (typeof value !== 'string' || value === '') continue;
      const entry = referenceEntry(run, 'psr_code', value);
      if (entry !== undefined && (entry.supply_type ?? market) === market) found.push(entry);
      else {
        missing = true;
        fail(run, `${prefix}${field}`, code, `The platform has no ${market} PSR need ${value}.`);
      }
    }
    const description = out.description;
    if (
      !missing &&
      found.length > 0 &&
      typeof description === 'string' &&
      description.trim() !== '' &&
      !found.some((entry) => sameText(entry.description, description))
    ) {
      fail(
        run,
        `${prefix}description`,
        'psr_record_description_not_found',
        "This is not the description of the need's code.",
      );
    }
    const end = out.effective_to;
    const endRefused = end === undefined && input.effective_to !== undefined;
    if (
      found.some((entry) => entry.temporary === true) &&
      (end === null || end === undefined) &&
      !endRefused
    ) {
      fail(
        run,
        `${prefix}effective_to`,
        'temporary_psr_does_not_have_end_date',
        'A temporary need is registered until an end date.',
      );
    }
  },
};

export const INDUSTRY_LOOKUP_RULES: ObjectRules = {
  ElectricityMeterPoint: electricityMeterPoint,
  GasMeterPoint: gasMeterPoint,
  ElectricityRegister: knownTpr,
  ElectricityEstimatedAnnualConsumption: knownTpr,
  EnergyPSR: energyPsr,
};
