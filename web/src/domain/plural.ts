/** "1 call", "3 calls", "0 calls"; `many` for a plural that is not `one` + s. */
export const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
