import CourierTestTraits
import GitWire
import Testing

/// Advertisements no git 2.39 daemon sends — older servers' forms and broken ones — fed to the
/// reader as packets. What a real daemon sends is checked against git in `LsRemoteTests`.
@Suite(.loadLimited)
struct AdvertisementReaderTests {
    private let address = "git://127.0.0.1/x.git"
    private let objectID = String(repeating: "a1", count: 20)

    private func read(_ lines: [String], then packets: [PktLine] = [.flush]) throws(GitWireError) -> RefAdvertisement {
        var reader = AdvertisementReader(address: address)
        for line in lines { try reader.read(.data(Array(line.utf8))) }
        for packet in packets { try reader.read(packet) }
        return reader.advertisement
    }

    @Test func anEmptyRepositoryTheOldWayHasNoRefsButCapabilities() throws {
        let advertisement = try read([
            "\(String(repeating: "0", count: 40)) capabilities^{}\u{0}ofs-delta agent=git/2.20\n"
        ])
        #expect(advertisement.refs.isEmpty)
        #expect(advertisement.capabilities == ["ofs-delta", "agent=git/2.20"])
        #expect(advertisement.lsRemoteOutput() == "")
    }

    @Test func readReturnsTheRefsEachPacketCompleted() throws {
        var reader = AdvertisementReader(address: address)
        let first = try reader.read(.data(Array("\(objectID) HEAD\u{0}symref=HEAD:refs/heads/main\n".utf8)))
        #expect(first.map(\.name) == ["HEAD"])
        let shallow = try reader.read(.data(Array("shallow \(objectID)\n".utf8)))
        #expect(shallow.isEmpty)
        #expect(try reader.read(.flush).isEmpty)
        #expect(reader.state == .finished)
        #expect(reader.advertisement.shallow == [objectID])
        #expect(reader.advertisement.lsRemoteOutput(symref: true) == "ref: refs/heads/main\tHEAD\n\(objectID)\tHEAD\n")
    }

    @Test func protocolTwoPeeledTagsAndUnbornHeads() throws {
        let peeled = String(repeating: "b2", count: 20)
        let advertisement = try read(
            ["version 2\n", "ls-refs=unborn\n"],
            then: [
                .flush,
                .data(Array("unborn HEAD symref-target:refs/heads/main\n".utf8)),
                .data(Array("\(objectID) refs/tags/v1 peeled:\(peeled)\n".utf8)),
                .flush,
            ]
        )
        #expect(advertisement.protocolVersion == 2)
        #expect(advertisement.refs.map(\.name) == ["HEAD", "refs/tags/v1", "refs/tags/v1^{}"])
        #expect(advertisement.lsRemoteOutput() == "\(objectID)\trefs/tags/v1\n\(peeled)\trefs/tags/v1^{}\n")
    }

    @Test(
        arguments: [
            (["not-a-ref\n"], "'not-a-ref' is not '<object id> <ref name>'"),
            (["abc HEAD\n"], "'abc' is not an object id"),
            (
                ["\(String(repeating: "A1", count: 20)) HEAD\n"],
                "'\(String(repeating: "A1", count: 20))' is not an object id"
            ),
            (["\(String(repeating: "a1", count: 20)) \n"], "'\(String(repeating: "a1", count: 20)) ' has no ref name"),
            (["version 2\n", "", "zzz HEAD\n"], "'zzz' is not an object id"),
            (["version 2\n", "", "HEAD\n"], "'HEAD' is not a ref line"),
            (["version 2\n", "", "\(String(repeating: "a1", count: 20))  peeled:x\n"], "has no ref name"),
            (
                ["version 2\n", "", "\(String(repeating: "a1", count: 20)) refs/tags/v1 peeled:xyz\n"],
                "'xyz' is not an object id"
            ),
        ]
    )
    func malformedLinesAreNamed(_ lines: [String], _ reason: String) {
        var reader = AdvertisementReader(address: address)
        #expect {
            for line in lines {
                try reader.read(line.isEmpty ? .flush : .data(Array(line.utf8)))
            }
        } throws: { error in
            guard case .malformed(let place, let why) = error as? GitWireError else { return false }
            return place == address && why.hasSuffix(reason)
        }
    }

    @Test func anErrPacketIsTheServersMessage() {
        var reader = AdvertisementReader(address: address)
        #expect(throws: GitWireError.server(address, message: "access denied or repository not exported: /x.git")) {
            try reader.read(.data(Array("ERR access denied or repository not exported: /x.git\n".utf8)))
        }
    }
}
