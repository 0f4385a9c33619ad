/** Column keys in column order (col2 before col10): every reader and writer that walks a sheet's columns orders them here. */
export const columnOrder = (keys: Iterable<string>) => [...keys].sort((a, b) => Number(a.slice(3)) - Number(b.slice(3)));
