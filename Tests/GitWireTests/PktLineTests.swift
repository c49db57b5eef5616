import CourierTestServer
import CourierTestTraits
import GitWire
import Testing

@Suite(.loadLimited)
struct PktLineTests {
    private func decodeAll(_ text: String) throws(PktLineError) -> [PktLine] {
        var decoder = PktLineDecoder()
        decoder.append(Array(text.utf8))
        var packets: [PktLine] = []
        while let packet = try decoder.next() { packets.append(packet) }
        return packets
    }

    @Test func encodesDataAndSpecialPackets() throws {
        #expect(try PktLine.data(Array("a\n".utf8)).encoded() == Array("0006a\n".utf8))
        #expect(try PktLine.data([]).encoded() == Array("0004".utf8))
        #expect(try PktLine.flush.encoded() == Array("0000".utf8))
        #expect(try PktLine.delimiter.encoded() == Array("0001".utf8))
        #expect(try PktLine.responseEnd.encoded() == Array("0002".utf8))
        #expect(
            Array(try PktLine.data([UInt8](repeating: 0x61, count: 65516)).encoded().prefix(4)) == Array("fff0".utf8)
        )
        #expect(throws: PktLineError.self) { try PktLine.data([UInt8](repeating: 0, count: 65517)).encoded() }
    }

    @Test func decodesAStreamOfPackets() throws {
        #expect(
            try decodeAll("0006a\n00000001000200080bcd0004") == [
                .data(Array("a\n".utf8)), .flush, .delimiter, .responseEnd, .data(Array("0bcd".utf8)), .data([]),
            ]
        )
        #expect(try decodeAll("000cERR nope").first?.errorMessage == "nope")
        #expect(try decodeAll("0006a\n").first?.text == "a")
    }

    @Test func decodesTheSameWhereverTheBytesAreSplit() throws {
        let stream = Array("001e# service=git-upload-pack\n00000009done\n0000".utf8)
        let expected = try decodeAll(String(decoding: stream, as: UTF8.self))
        for split in 0...stream.count {
            var decoder = PktLineDecoder()
            var packets: [PktLine] = []
            decoder.append(stream[..<split])
            while let packet = try decoder.next() { packets.append(packet) }
            decoder.append(stream[split...])
            while let packet = try decoder.next() { packets.append(packet) }
            #expect(packets == expected, "split at \(split)")
            #expect(decoder.pendingByteCount == 0)
        }
        // One byte at a time.
        var decoder = PktLineDecoder()
        var packets: [PktLine] = []
        for byte in stream {
            decoder.append([byte])
            while let packet = try decoder.next() { packets.append(packet) }
        }
        #expect(packets == expected)
    }

    @Test(
        arguments: [
            ("0003", "malformed pkt-line at offset 0 (bytes 30 30 30 33): length 3 is reserved and never valid"),
            ("00g1", "malformed pkt-line at offset 0 (bytes 30 30 67 31): the length is not four hexadecimal digits"),
            (
                "0000fff1",
                "malformed pkt-line at offset 4 (bytes 66 66 66 31): length 65521 is longer than the 65520 a packet may have"
            ),
            (
                "0005a0 12",
                "malformed pkt-line at offset 5 (bytes 30 20 31 32): the length is not four hexadecimal digits"
            ),
            ("-001", "malformed pkt-line at offset 0 (bytes 2d 30 30 31): the length is not four hexadecimal digits"),
        ]
    )
    func malformedLengthsNameTheirBytesAndOffset(_ stream: String, _ message: String) {
        #expect {
            _ = try decodeAll(stream)
        } throws: { error in
            (error as? PktLineError)?.description == message
        }
    }

    @Test func everyLengthPrefixIsJudgedTheSameWay() {
        // All 65536 prefixes: valid lengths decode (given the payload), the rest throw; nothing crashes.
        for length in 0..<0x10000 {
            let digits = Array("0123456789abcdef".utf8)
            let prefix = [12, 8, 4, 0].map { digits[(length >> $0) & 0xF] }
            var decoder = PktLineDecoder()
            decoder.append(prefix + [UInt8](repeating: 0x41, count: max(0, min(length, 65520) - 4)))
            let outcome = Result { () throws(PktLineError) -> PktLine? in try decoder.next() }
            switch length {
            case 3, 65521...: #expect(throws: PktLineError.self) { try outcome.get() }
            default: #expect((try? outcome.get()) != nil, "length \(length)")
            }
        }
    }

    @Test func randomBytesAndTruncationsNeverCrash() {
        var generator = SeededGenerator()
        for _ in 0..<2000 {
            let count = Int.random(in: 0...64, using: &generator)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if Bool.random(using: &generator) {
                bytes = Array("0009abcde0000".utf8).prefix(Int.random(in: 0...13, using: &generator)) + bytes
            }
            var decoder = PktLineDecoder()
            decoder.append(bytes)
            var steps = 0
            while steps < 100, let packet = try? decoder.next() {
                _ = packet
                steps += 1
            }
            #expect(steps < 100)
        }
    }
}
