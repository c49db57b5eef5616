// libFuzzer harness: image header sniffing (Sources/CourierImages/ImageHeader.swift and
// ImageFormat.swift). Checked: a header that is read has a known format and positive size,
// and the format agrees with the signature alone.

/// libFuzzer's entry point: runs one input of `count` bytes at `start`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    let bytes = Array(UnsafeRawBufferPointer(start: start, count: count))
    let signature = ImageFormat(signatureOf: bytes)
    do {
        let header = try ImageHeader(reading: bytes)
        precondition(header.pixelWidth > 0 && header.pixelHeight > 0, "a header without a size")
        precondition(header.format == signature, "the header's format is not its signature's")
    } catch {
        _ = error.description
    }
    // The same bytes as a slice that does not start at index 0.
    if bytes.count > 1 { _ = try? ImageHeader(reading: bytes[1...]) }
    return 0
}
