/** How much of the published account a sample fills in (`--shape`). */

/** From the fewest fields a useful account needs to every section a migration may carry. */
export const SAMPLE_SHAPES = ['minimal', 'typical', 'full'] as const;

export type SampleShape = (typeof SAMPLE_SHAPES)[number];

export const DEFAULT_SHAPE: SampleShape = 'typical';
