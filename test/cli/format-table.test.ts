import { expect, it } from 'vitest';
import { formatTable } from '../../src/cli/common.js';

it('pads each column but the last to its widest cell', () => {
  const table = formatTable(
    ['KIND', 'CODE', 'NOTE'],
    [
      ['tpr', '00001', 'x'],
      ['market_participant', 'BGT', ''],
    ],
  );
  expect(table.split('\n')).toEqual([
    'KIND                CODE   NOTE',
    'tpr                 00001  x',
    'market_participant  BGT',
  ]);
});

it('lays out a list of hundreds of thousands of rows', () => {
  const rows = Array.from({ length: 300_000 }, (_, i) => ['tpr', `B${i}`]);
  const lines = formatTable(['KIND', 'CODE'], rows).split('\n');
  expect(lines).toHaveLength(300_001);
  expect(lines.at(-1)).toBe('tpr   B299999');
});
