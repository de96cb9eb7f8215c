/** The meter point registration endpoints, as tests call them. */
import type { TestService } from './app.js';

export const REGISTRATION_PATHS = {
  statuses: (supplier: string, external: string) =>
    `/v1/data-import/meterpoint-statuses-for-account/${encodeURIComponent(supplier)}/${encodeURIComponent(external)}/`,
  send: (supplier: string, external: string) =>
    `/v1/data-import/send-registration-flows/${encodeURIComponent(supplier)}/${encodeURIComponent(external)}/`,
};

/** GET the statuses of the supplier's account (DEMO by default). */
export const getStatuses = (service: TestService, external: string, supplier = 'DEMO') =>
  service.request({ method: 'GET', url: REGISTRATION_PATHS.statuses(supplier, external) });

/** POST a send of the supplier's account (DEMO by default). */
export const sendFlows = (service: TestService, external: string, supplier = 'DEMO') =>
  service.request({ method: 'POST', url: REGISTRATION_PATHS.send(supplier, external) });
