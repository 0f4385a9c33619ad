import { SqliteDialect, SqliteDriver, type CompiledQuery, type DatabaseConnection, type Driver, type Kysely, type SqliteDatabase, type SqliteDialectConfig } from 'kysely';

/**
 * A first-come-first-served lock: each release hands the lock to the next waiter and wakes only it.
 * An uncontended acquire takes no promise.
 */
export class FifoLock {
  #held = false;
  #waiters: (() => void)[] = [];
  #next = 0;

  acquire(): Promise<void> | undefined {
    if (!this.#held) {
      this.#held = true;
      return undefined;
    }
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  release(): void {
    if (this.#next < this.#waiters.length) {
      const wake = this.#waiters[this.#next];
      this.#next++;
      // Drop the woken prefix now and then, so the array does not grow for as long as the lock is busy.
      if (this.#next >= 1024) {
        this.#waiters = this.#waiters.slice(this.#next);
        this.#next = 0;
      }
      wake(); // the lock stays held: it passes to this waiter
      return;
    }
    this.#waiters.length = 0;
    this.#next = 0;
    this.#held = false;
  }
}

/** better-sqlite3's database as the statement cache wraps it: Kysely's interface plus whether a transaction is open. */
export interface SqliteFile extends SqliteDatabase {
  readonly inTransaction: boolean;
}

type FairSqliteConfig = SqliteDialectConfig & { database: SqliteFile };

/**
 * Kysely's SQLite driver behind a fair lock. Its own lock has every waiter await one promise: each
 * release wakes them all, one takes the lock and the rest wait again, so with 50 queries queued each
 * release cost ~50 promise resumptions. Here a release wakes only the next waiter.
 */
class FairSqliteDriver extends SqliteDriver {
  #lock = new FifoLock();
  #connection: DatabaseConnection | undefined;
  readonly #database: SqliteFile;

  constructor(config: FairSqliteConfig) {
    super(config);
    this.#database = config.database;
  }

  override async init(): Promise<void> {
    await super.init();
    // The driver has one connection behind its own lock: taken here once, for good, and lent out behind ours.
    this.#connection = await super.acquireConnection();
  }

  /**
   * Runs a read-only statement at once, synchronously, unless a transaction is open on the
   * connection (its reads must not see that transaction's writes before they commit); undefined
   * then, or when the statement writes. Kysely's way through its executor, connection provider and
   * driver is a dozen promise turns and a turn of the lock per query; with fifty requests
   * interleaved that cost more than the query (docs/performance.md, tenth pass). A query that holds
   * the lock outside a transaction is no obstacle: better-sqlite3 runs each statement to its end
   * synchronously, so this one cannot land inside it.
   */
  readNow<R>(query: CompiledQuery<R>): R[] | undefined {
    if (!this.#connection || this.#database.inTransaction) return undefined;
    const stmt = this.#database.prepare(query.sql) as unknown as { readonly: boolean; all(params: readonly unknown[]): R[] };
    return stmt.readonly ? stmt.all(query.parameters) : undefined;
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    await this.#lock.acquire();
    return this.#connection!;
  }

  /**
   * After some errors (SQLITE_FULL, SQLITE_IOERR) SQLite has rolled the transaction back itself; a
   * ROLLBACK then fails with "cannot rollback - no transaction is active", and Kysely would throw that
   * instead of the error that mattered (a full disk said "cannot rollback"). Nothing to undo: skip it.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#database.inTransaction) await super.rollbackTransaction(connection);
  }

  override async releaseConnection(): Promise<void> {
    this.#lock.release();
  }
}

/** The root database of each FairSqliteDialect (never a transaction: those always take the lock). */
const drivers = new WeakMap<object, FairSqliteDriver>();

/** SqliteDialect with the fair connection lock above; everything else is Kysely's. `database` is an object, not a factory. */
export class FairSqliteDialect extends SqliteDialect {
  readonly #config: FairSqliteConfig;
  #driver: FairSqliteDriver | undefined;

  constructor(config: FairSqliteConfig) {
    super(config);
    this.#config = config;
  }

  override createDriver(): Driver {
    this.#driver = new FairSqliteDriver(this.#config);
    return this.#driver;
  }

  /** Lets readNow() serve `db`, the Kysely instance made with this dialect. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
  attach(db: Kysely<any>): void {
    if (this.#driver) drivers.set(db, this.#driver);
  }
}

/** The rows of a read-only query run at once on `exec`'s SQLite connection, or undefined: then run it through Kysely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a helper for any schema, instance or transaction (a Kysely<Database> is not a Kysely<unknown>)
export function readNow<R>(exec: Kysely<any>, query: CompiledQuery<R>): R[] | undefined {
  return drivers.get(exec)?.readNow(query);
}
