import CourierXML
import Foundation

/// Applying a field's collected text, per ``FeedRules/fields``.
extension FeedBuilder {
    mutating func finishCapture(_ capture: Capture) {
        let raw = String(decoding: capture.text, as: UTF8.self)
        if person != nil, FeedRules.isPersonPart(capture.element) {
            let value = FeedText.collapsingWhitespace(raw)
            switch capture.element {
            case .name: person?.name = value
            case .email: person?.email = value
            default: person?.uri = Self.resolve(value, against: capture.base)
            }
            return
        }
        if capture.element == .url, person == nil, entry == nil {
            // The url of the channel's RSS `<image>`.
            if let url = Self.resolvePicture(raw, against: capture.base) { feed.image = url }
            return
        }
        let context: FeedRules.Context = entry != nil ? .entry : .feed
        guard let field = FeedRules.field(capture.element, in: context) else { return }
        // `.first` and `.firstWithText`: once set, a later occurrence is skipped. (`.last` and
        // `.all` are what the assignments below do: overwrite, append.)
        let isSet =
            context == .entry ? entry?.setTargets.contains(field.target) == true : feedSetTargets.contains(field.target)
        if field.precedence == .first || field.precedence == .firstWithText, isSet { return }
        if field.precedence != .firstWithText { markSet(field.target, in: context) }
        switch field.target {
        case .title, .mediaTitle, .subtitle, .summary:
            let value = text(raw, capture)
            set(field, value)
        case .content:
            entry?.entry.content = Self.decodedIfBase64(raw, capture)
            entry?.entry.contentBase = capture.base?.absoluteString
            entry?.entry.contentType = Self.contentType(capture)
            if entry?.entry.summary == nil {
                let summary = text(raw, capture)
                entry?.entry.summary = summary
            }
        case .updated, .published:
            guard let date = FeedDate.parse(raw) else { return }
            if field.target == .published {
                entry?.entry.published = date
            } else if context == .entry {
                entry?.entry.updated = date
            } else {
                feed.updated = date
            }
        case .id:
            let value = raw.trimmingXMLSpace()
            guard !value.isEmpty else { return }
            let isPermaLink =
                capture.element != .guid || Self.value("ispermalink", in: capture.attributes)?.lowercased() != "false"
            let id = isPermaLink ? Self.resolve(value, against: capture.base) : value
            guard context == .entry else {
                feedID = id
                return
            }
            entry?.entry.id = id
            if isPermaLink { entry?.permalink = id }
        case .link:
            let value = raw.trimmingXMLSpace()
            guard !value.isEmpty, let resolved = Self.resolve(value, against: capture.base) else { return }
            // An Atom 0.3 link may give its URL as text; then rel and type still choose it.
            let rel = Self.value("rel", in: capture.attributes)
            let type = Self.value("type", in: capture.attributes)
            let isAtomStyle = rel != nil || type != nil
            if context == .entry {
                if isAtomStyle {
                    entry?.link.offer(rel: rel, type: type, href: resolved)
                } else {
                    entry?.link.link = resolved
                }
            } else if isAtomStyle {
                feedLink.offer(rel: rel, type: type, href: resolved)
            } else {
                feedLink.link = resolved
            }
        case .language:
            feed.language = raw.trimmingXMLSpace()
        case .author:
            let name = FeedText.collapsingWhitespace(raw)
            guard !name.isEmpty else { return }
            if context == .entry {
                entry?.entry.authors.append(Person(name: name))
            } else {
                if feed.authors.count < Self.maximumFeedAuthors { feed.authors.append(Person(name: name)) }
            }
        case .category:
            entry?.entry.categories.append(FeedText.collapsingWhitespace(raw))
        case .image:
            if let url = Self.resolvePicture(raw, against: capture.base) { feed.image = url }
        case .icon:
            if let url = Self.resolvePicture(raw, against: capture.base) { feed.icon = url }
        case .explicit:
            let value = FeedValues.explicit(raw)
            if context == .entry { entry?.entry.isExplicit = value } else { feed.isExplicit = value }
        case .duration:
            entry?.entry.duration = FeedValues.duration(raw)
        case .episode:
            entry?.entry.episode = FeedValues.wholeNumber(raw)
        case .season:
            entry?.entry.season = FeedValues.wholeNumber(raw)
        }
    }

    /// What kind of content a capture holds: `html`, `xhtml`, `text`, or a media type; `nil`
    /// for RSS's content, which is HTML.
    private static func contentType(_ capture: Capture) -> String? {
        // Atom's content without a type is text (RFC 4287 §4.1.3.1); RSS's is HTML.
        guard let type = value("type", in: capture.attributes)?.lowercased() else {
            return capture.isAtom ? "text" : nil
        }
        switch type {
        case "text/html": return "html"
        case "application/xhtml+xml": return "xhtml"
        case "text/plain": return "text"
        default:
            if value("mode", in: capture.attributes)?.lowercased() == "escaped" { return "html" }
            return type
        }
    }

    private mutating func markSet(_ target: FeedRules.Target, in context: FeedRules.Context) {
        if context == .entry { entry?.setTargets.insert(target) } else { feedSetTargets.insert(target) }
    }

    /// Sets a text field (its precedence is applied before: a field skipped is not set).
    private mutating func set(_ field: FeedRules.Field, _ value: String?) {
        switch field.target {
        case .title where entry != nil:
            entry?.entry.title = value
        case .title:
            feed.title = value
        case .mediaTitle:
            entry?.mediaTitle = value
            if value != nil { markSet(.mediaTitle, in: .entry) }
        case .subtitle:
            feed.subtitle = value
        case .summary:
            entry?.entry.summary = value
        default:
            break
        }
    }

    /// The plain text of a text construct: Atom's `type` decides (text, html, xhtml, or a media
    /// type); elsewhere the text is HTML when it looks like HTML.
    private func text(_ raw: String, _ capture: Capture) -> String? {
        let decoded = Self.decodedIfBase64(raw, capture)
        let type = Self.value("type", in: capture.attributes)?.lowercased()
        let value: String
        switch type {
        case "text", "text/plain":
            value = FeedText.collapsingWhitespace(decoded)
        case "html", "text/html", "xhtml", "application/xhtml+xml":
            value = FeedText.plainText(fromHTML: decoded)
        case _ where Self.value("mode", in: capture.attributes)?.lowercased() == "escaped":
            value = FeedText.plainText(fromHTML: decoded)
        case _ where capture.isAtom && capture.element != .mediaTitle && capture.element != .description:
            // Atom text constructs are text unless their type says otherwise.
            value = FeedText.collapsingWhitespace(decoded)
        default:
            value =
                FeedText.looksLikeHTML(decoded)
                ? FeedText.plainText(fromHTML: decoded) : FeedText.collapsingWhitespace(decoded)
        }
        return value.isEmpty ? nil : value
    }

    /// Content in base64 (`mode="base64"`, or a media type that is not text) decoded.
    private static func decodedIfBase64(_ text: String, _ capture: Capture) -> String {
        let type = value("type", in: capture.attributes)?.lowercased() ?? ""
        let mode = value("mode", in: capture.attributes)
        let isBinaryType =
            !type.isEmpty && !type.hasPrefix("text") && !type.contains("xml") && !["html", "xhtml"].contains(type)
        guard mode?.lowercased() == "base64" || isBinaryType else { return text }
        let compact = text.filter { !$0.isWhitespace }
        guard let data = Data(base64Encoded: compact), let decoded = String(data: data, encoding: .utf8) else {
            return text
        }
        return decoded
    }
}
