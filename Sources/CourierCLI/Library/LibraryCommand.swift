import ArgumentParser
import Foundation
import LibraryKit
import LibraryPostgres
import LibrarySearch
import Logging

/// `courier library import|add-book|add-location|close-location|set-hours`: a library's data in PostgreSQL, changed while
/// `courier serve --database` replicas serve it.
struct LibraryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "library",
        abstract: "Load and change a library's catalog in PostgreSQL, for courier serve --database.",
        discussion: """
            Each change is one transaction; every 'courier serve --database' replica answers with it \
            within a second. The schema is created and migrated as needed.

            Examples:
              courier library import --database postgres://courier@127.0.0.1/library --data ./my-library
              courier library add-book --database postgres://courier@127.0.0.1/library --title "Beowulf"
              courier library add-location --database postgres://courier@127.0.0.1/library \\
                --address "Calle de Alcalá 1" --city Madrid --country Spain --emoji 🇪🇸 --hours "9am–9pm"
              courier library close-location --database postgres://courier@127.0.0.1/library --city Madrid
              courier library set-hours --database postgres://courier@127.0.0.1/library --city Paris --hours "9am–5pm"
            """,
        subcommands: [Import.self, AddBook.self, AddLocation.self, CloseLocation.self, SetHours.self]
    )

    /// `--database`, shared by the subcommands.
    struct DatabaseOptions: ParsableArguments {
        @Option(help: "The PostgreSQL address: postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE[?sslmode=…].")
        var database: String

        func validate() throws {
            _ = try DatabaseURLOption.parse(database)
        }

        /// Runs `body` on the migrated database; its failures become the command's.
        func perform<Result: Sendable>(
            _ body: @Sendable (LibraryDatabase) async throws(LibraryDatabaseError) -> Result
        ) async throws -> Result {
            let url = try DatabaseURLOption.parse(database)
            let logger = Terminal.logger(label: "courier.library", level: .warning)
            do {
                return try await LibraryDatabase.withDatabase(url: url, logger: logger) { database in
                    try await body(database)
                }
            } catch let error as LibraryDatabaseError {
                throw DatabaseURLOption.failure(error)
            }
        }
    }

    struct Import: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "import",
            abstract: "Replace the catalog and locations with a directory's catalog.json and locations.json.",
            discussion: "The files are checked as 'courier serve --data' checks them, then loaded in one transaction."
        )

        @OptionGroup var options: DatabaseOptions

        @Option(help: "A directory with catalog.json and locations.json.")
        var data: String

        func run() async throws {
            let started = ContinuousClock.now
            let libraryData: LibraryData
            do {
                libraryData = try LibraryData.load(from: URL(fileURLWithPath: data, isDirectory: true))
            } catch {
                throw CommandFailure("\(error)\nFix the file; nothing was imported.", status: .usage)
            }
            let summary = try await options.perform { database throws(LibraryDatabaseError) in
                try await database.importData(libraryData)
            }
            let elapsed = (ContinuousClock.now - started).seconds
            Terminal.output(
                "Imported \(summary.books) books and \(summary.locations) locations in "
                    + "\(String(format: "%.1f", elapsed)) s."
            )
        }
    }

    /// `--city` and `--address`: which location a change is for, matched ignoring case and accents.
    struct PlaceOptions: ParsableArguments {
        @Option(help: "The location's city.")
        var city: String

        @Option(help: "The location's street address, when its city has more than one.")
        var address: String?
    }

    struct AddBook: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-book",
            abstract: "Add one book to the catalog."
        )

        @OptionGroup var options: DatabaseOptions

        @Option(help: "The title.")
        var title: String

        @Option(help: "The author, if known.")
        var author: String?

        @Option(
            parsing: .unconditional,
            help:
                "The year of first publication, negative before the common era (\(NumericOption.describe(Self.years))).",
            transform: NumericOption.integer(in: Self.years)
        )
        var year: Int?

        @Option(help: "An ISBN-10 or ISBN-13 of one edition.")
        var isbn: String?

        @Option(name: .customLong("cover-url"), help: "An http or https URL of the cover.")
        var coverURL: String?

        static let years = -5000...3000

        func run() async throws {
            var cover: URL?
            if let coverURL {
                guard let url = URL(string: coverURL) else {
                    throw ValidationError("--cover-url '\(coverURL)' is not a URL.")
                }
                cover = url
            }
            let book = Book(title: title, author: author, year: year, isbn: isbn, coverURL: cover)
            try await options.perform { database throws(LibraryDatabaseError) in try await database.addBook(book) }
            Terminal.output("Added \(TerminalText.escaped(title)).")
        }
    }

    struct AddLocation: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-location",
            abstract: "Add one library location."
        )

        @OptionGroup var options: DatabaseOptions

        @Option(help: "The street address, without city or country.")
        var address: String

        @Option(help: "The city.")
        var city: String

        @Option(help: "The country, in English (what a search by country matches).")
        var country: String

        @Option(help: "The country's flag, such as 🇪🇸.")
        var emoji: String

        @Option(help: "The opening hours, such as '9am–6pm'.")
        var hours: String

        func run() async throws {
            let location = Location(streetAddress: address, city: city, country: country, emoji: emoji, hours: hours)
            try await options.perform { database throws(LibraryDatabaseError) in
                try await database.addLocation(location)
            }
            Terminal.output("Added \(TerminalText.escaped(address)), \(TerminalText.escaped(city)).")
        }
    }

    struct CloseLocation: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "close-location",
            abstract: "Remove one library location: it has closed.",
            discussion:
                "The city (and the address, when the city has more than one library) are matched ignoring case and accents."
        )

        @OptionGroup var options: DatabaseOptions

        @OptionGroup var place: PlaceOptions

        func run() async throws {
            let (city, address) = (place.city, place.address)
            let location = try await options.perform { database throws(LibraryDatabaseError) in
                try await database.closeLocation(city: city, streetAddress: address)
            }
            Terminal.output(
                "Closed \(TerminalText.escaped(location.streetAddress)), \(TerminalText.escaped(location.city))."
            )
        }
    }

    struct SetHours: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set-hours",
            abstract: "Change one location's opening hours.",
            discussion:
                "The city (and the address, when the city has more than one library) are matched ignoring case and accents."
        )

        @OptionGroup var options: DatabaseOptions

        @OptionGroup var place: PlaceOptions

        @Option(help: "The new hours, such as '9am–6pm'.")
        var hours: String

        func run() async throws {
            let (hours, city, address) = (hours, place.city, place.address)
            let location = try await options.perform { database throws(LibraryDatabaseError) in
                try await database.setHours(hours, city: city, streetAddress: address)
            }
            Terminal.output(
                "\(TerminalText.escaped(location.streetAddress)), \(TerminalText.escaped(location.city)): "
                    + "open \(TerminalText.escaped(location.hours))."
            )
        }
    }
}
