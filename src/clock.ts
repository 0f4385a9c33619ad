export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A millisecond timestamp as the ISO text the tables store. */
export const isoAt = (ms: number) => new Date(ms).toISOString();

/** A clock tests move by hand, so schedules and "this month" run in milliseconds. */
export function manualClock(start = new Date()): Clock & { advance(ms: number): void; set(d: Date): void } {
  let current = start.getTime();
  return {
    now: () => new Date(current),
    advance: (ms) => {
      current += ms;
    },
    set: (d) => {
      current = d.getTime();
    },
  };
}
