/// Counters of a journal's work since it opened, for `/metrics` and for checking that group commit groups.
public struct JournalStatistics: Sendable, Hashable {
    /// Transactions committed (each one fsync of the WAL).
    public var transactions: Int
    /// Writes stored by those transactions.
    public var committedWrites: Int
    /// Writes refused or lost to a failed transaction.
    public var failedWrites: Int

    public init(transactions: Int = 0, committedWrites: Int = 0, failedWrites: Int = 0) {
        self.transactions = transactions
        self.committedWrites = committedWrites
        self.failedWrites = failedWrites
    }
}
