import Foundation
import Testing

/// The ten minimal sessions an independent frontend found answered wrongly
/// in trees, windows, `echo` and filtered edits (protocol/tools/
/// tree-window-repros.py), through the binary in both framings.
struct TreeWindowReproTests {
    @Test func everyReproAnswersAsTheSpecSays() throws {
        let binary = try ClientTests.requireBinary(), python3 = try ClientTests.requirePython()
        let result = try ClientTests.run(python3, ["protocol/tools/tree-window-repros.py", "-q", "--bin", binary.path],
                                         timeout: 300)
        #expect(result.status == 0, "\(result.output.suffix(6000))")
        #expect(result.output.contains("PASS  10."), "\(result.output.suffix(2000))")
    }
}
