/// Checks a whole document against its candidate encodings, as feedparser does: the first
/// encoding that reads every byte is the document's. One pass over the document per candidate
/// tried, each ending at the first byte the candidate does not read; usually one.
///
/// A document said to be ISO-8859-1, windows-1252 or US-ASCII that is valid UTF-8 with
/// non-ASCII characters is read as UTF-8 (generators often declare Latin-1 and write UTF-8;
/// text really in Latin-1 is almost never valid UTF-8).
enum EncodingCheck {
    /// The encoding to read the document in, with the problem it makes.
    ///
    /// - Parameter read: Runs its argument on the document's bytes from the start, piece by
    ///   piece, until it returns `false`; called once per candidate tried.
    static func settle<Failure: Error>(
        _ choice: FeedEncoding.Choice,
        reading read: (_ consume: (UnsafeBufferPointer<UInt8>) -> Bool) throws(Failure) -> Void
    ) throws(Failure) -> FeedEncoding.Choice {
        var names = choice.candidates.isEmpty ? [choice.encoding] : choice.candidates
        let triesUTF8First = FeedDecoder.isSingleByteLatin(choice.encoding)
        if triesUTF8First { names.insert("utf-8", at: 0) }
        var settled = choice
        settled.guessesUTF8 = false
        for (index, name) in names.enumerated() {
            var candidate = FeedEncoding.Choice(encoding: name, byteOrderMarkLength: choice.byteOrderMarkLength)
            candidate.guessesUTF8 = false
            var decoder = FeedDecoder(candidate)
            try read { bytes in
                decoder.decode(bytes) { _ in }
                return !decoder.failed
            }
            if !decoder.failed { decoder.finish { _ in } }
            guard !decoder.failed else { continue }
            if index == 0, triesUTF8First {
                // ASCII reads the same in the label's encoding.
                guard decoder.sawNonASCII else { return settled }
                settled.problem =
                    settled.problem
                    ?? "the document says it is \(choice.encoding) but is written in UTF-8; read as UTF-8"
            } else if name != choice.encoding {
                settled.problem = settled.problem ?? "the document is not valid \(choice.encoding); read as \(name)"
            }
            settled.encoding = name
            return settled
        }
        return settled
    }
}
