import GitWire

extension RefAdvertisement {
    /// The advertisement with every ref name, symbolic ref target and object id escaped onto
    /// one line (``TerminalText/escaped(_:as:)``), for printing: they are the server's text, and
    /// a name holding a newline or a terminal command must not fake a line or reach the terminal.
    func escapedForTerminal() -> RefAdvertisement {
        // Most advertisements hold nothing to escape: then they are not copied.
        let needsEscape = { (text: String) in TerminalText.escaped(text, as: .line) != text }
        guard
            refs.contains(where: { needsEscape($0.name) || needsEscape($0.objectID) })
                || symrefs.contains(where: { needsEscape($0.name) || needsEscape($0.target) })
        else { return self }
        var escaped = self
        escaped.refs = refs.map { ref in
            AdvertisedRef(
                objectID: TerminalText.escaped(ref.objectID, as: .line),
                name: TerminalText.escaped(ref.name, as: .line)
            )
        }
        escaped.symrefs = symrefs.map { symref in
            (name: TerminalText.escaped(symref.name, as: .line), target: TerminalText.escaped(symref.target, as: .line))
        }
        return escaped
    }
}
