/** The datetimes the status and the lists answer with. */
import { isoTime } from '../../datetime.js';

const lastFormatted = { second: Number.NaN, text: '' };

/**
 * `YYYY-MM-DDTHH:MM:SSZ`, the service's datetime format (docs/interface.md). Formatting a date costs more than
 * reading its row, and the accounts of one list page were mostly created in the same second,
 * so the last second's text is reused.
 */
export function formatDatetime(epochMs: number): string {
  const second = Math.floor(epochMs / 1000);
  if (second !== lastFormatted.second) {
    lastFormatted.second = second;
    lastFormatted.text = isoTime(second * 1000);
  }
  return lastFormatted.text;
}
