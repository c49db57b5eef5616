import GRDB

/// The store's tables, as versioned migrations: a database written by an older Courier is
/// brought up to date when it is opened, and one from a newer Courier is refused.
enum FavoritesSchema {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1: members, movies, favourites") { db in
            try db.create(table: "member") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("name", .text).notNull()
                table.column("name_key", .text).notNull().unique()
                table.column("added_at", .datetime).notNull()
            }
            try db.create(table: "movie") { table in
                table.autoIncrementedPrimaryKey("id")
                table.column("title", .text).notNull()
                table.column("title_key", .text).notNull().unique()
                table.column("tmdb_id", .integer)
                table.column("popularity", .double)
                table.column("fetched_at", .datetime)
                table.column("last_error", .text)
                table.column("added_at", .datetime).notNull()
            }
            try db.create(table: "favorite") { table in
                table.column("member_id", .integer).notNull().references("member", onDelete: .cascade)
                table.column("movie_id", .integer).notNull().references("movie", onDelete: .cascade)
                table.column("added_at", .datetime).notNull()
                table.primaryKey(["member_id", "movie_id"])
            }
            try db.create(index: "favorite_on_movie", on: "favorite", columns: ["movie_id"])
            try db.create(index: "movie_on_fetched_at", on: "movie", columns: ["fetched_at"])
        }
        return migrator
    }
}
