// The README's XML sample ("XML for any service"), whose imports must open a file.

import CourierXML

// swift-format-ignore
func episodes(in data: [UInt8]) throws -> [String] {
    var found: [String] = []
    var reader = try XMLPathReader(["item/title", "item/enclosure/@url"])
    try reader.read(data) { match in found.append(match.value) }   // as each piece arrives
    try reader.finish { match in found.append(match.value) }
    return found
}
