import Foundation
import Testing

/// protocol/tools/package end to end, as someone without a Swift toolchain
/// meets its output: it packages a static debug build (quicker to build than
/// a release one; the packaging is the same) into a temporary dist/, then
///
/// - the archive's daemon needs only the C library (`ldd`), and the Neovim
///   and Vim plugins beside it find it by themselves and draw a search;
/// - the wheel goes into a fresh venv (`pip install --no-index`) and
///   `diffable.Client()` applies and searches through the daemon it bundles;
/// - the npm tarball goes into a fresh folder (`npm install --offline`) and
///   `Client.start()` does the same with the daemon it bundles;
///
/// each session run from a temporary folder with PATH holding only the
/// package's bin folder and /usr/bin:/bin (no toolchain, no .build, no
/// $DIFFABLE_BIN). Every failure quotes the output of the step that failed.
struct PackageTests {
    static let root = ClientTests.root

    /// The version every package must carry: the daemon's ServerInfo.version.
    static func serverVersion() throws -> String {
        let file = root.appendingPathComponent("Sources/DiffableServer/Server/ServerVersion.swift")
        let text = try String(contentsOf: file, encoding: .utf8)
        let line = try #require(text.split(separator: "\n").first { $0.contains("static let version") },
                                "no `static let version` in \(file.path)")
        return try #require(line.split(separator: "\"").dropFirst().first.map(String.init))
    }

    struct Step {
        var status: Int32
        var output: String
        var seconds: Double
    }

    /// Runs `executable` in `directory` with exactly `environment` (nothing inherited) and stdin
    /// closed, collecting stdout and stderr together; `timeout` only detects a hang.
    static func run(_ executable: URL, _ arguments: [String], in directory: URL,
                    environment: [String: String], timeout: TimeInterval) throws -> Step {
        let started = Date()
        let result = try ClientTests.run(executable, arguments, environment: environment, in: directory,
                                         inheriting: false, timeout: timeout)
        return Step(status: result.status, output: result.output, seconds: Date().timeIntervalSince(started))
    }

    /// Runs a step that must succeed; a failure stops the test with the step's output.
    @discardableResult
    static func require(_ what: String, _ executable: URL, _ arguments: [String], in directory: URL,
                        environment: [String: String], timeout: TimeInterval = 300,
                        sourceLocation: SourceLocation = #_sourceLocation) throws -> Step {
        let step = try run(executable, arguments, in: directory, environment: environment, timeout: timeout)
        try #require(step.status == 0, "\(what) failed (status \(step.status)):\n\(step.output.suffix(8000))",
                      sourceLocation: sourceLocation)
        return step
    }

    /// The last line of a step's output, decoded as a JSON object.
    static func lastJSON(_ step: Step, _ what: String) throws -> [String: Any] {
        let line = step.output.split(separator: "\n").last.map(String.init) ?? ""
        let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
        return try #require(object, "\(what) did not end with a JSON line:\n\(step.output.suffix(4000))")
    }

    static func tool(_ name: String) throws -> URL {
        try #require(ClientTests.tool(name),
                     "\(name) is not on PATH; protocol/tools/install-test-tools installs what this test drives")
    }

    /// A session's environment: PATH holds `bin` (if any) and /usr/bin:/bin only.
    static func bare(_ bin: URL?, home: URL) -> [String: String] {
        ["PATH": (bin.map { $0.path + ":" } ?? "") + "/usr/bin:/bin", "HOME": home.path, "LANG": "C.UTF-8",
         "TMPDIR": home.path]
    }

    static let pythonSession = """
        import json, diffable
        found = diffable.find_daemon()
        frontend = diffable.Frontend()
        with diffable.Client(initialization_options={"form": "steps"}) as client:
            frontend.update(client.apply("people", [{"id": "list", "items": [
                {"id": "grace", "content": {"text": "Grace Elizabeth"}},
                {"id": "liam", "content": {"text": "Liam Thomas"}}]}]))
            searched = client.search("people", "gr")
            frontend.update(searched)
            served = client.initialize_result["serverInfo"]["version"]
            status = client.close()
        print(json.dumps({"found": found, "version": diffable.__version__, "served": served,
                          "matches": searched["search"]["matches"], "lines": frontend.lines("people"),
                          "status": status}))
        """

    static let nodeSession = """
        import { createRequire } from 'node:module';
        import { Client, Frontend, findDaemon } from 'diffable-client';
        const found = findDaemon();
        const client = await Client.start({ initializationOptions: { form: 'steps' } });
        const frontend = new Frontend();
        frontend.update(await client.apply('people', [{ id: 'list', items: [
          { id: 'grace', content: { text: 'Grace Elizabeth' } },
          { id: 'liam', content: { text: 'Liam Thomas' } }] }]));
        const searched = await client.search('people', 'gr');
        frontend.update(searched);
        const served = client.initializeResult.serverInfo.version;
        await client.close();
        const version = createRequire(import.meta.url)('diffable-client/package.json').version;
        console.log(JSON.stringify({ found, version, served, matches: searched.search.matches,
                                     lines: frontend.lines('people') }));
        """

    static let nvimSession = """
        local d = require('diffable')
        local found, why = d.find_bin()
        local s = assert(d.start())
        local buf = vim.api.nvim_create_buf(true, true)
        d.render.setup_buffer(buf)
        s:attach('people', buf)
        s:apply('people', { { id = 'list', items = {
          { id = 'grace', content = { text = 'Grace Elizabeth' } },
          { id = 'liam', content = { text = 'Liam Thomas' } } } } })
        s:search('people', 'gr')
        local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
        local status = s:stop()
        io.stdout:write(vim.fn.json_encode({ found = found or why, lines = lines, status = status }) .. '\\n')
        """

    static func vimSession(_ plugin: String, report: String) -> String {
        """
        vim9script
        import '\(plugin)' as d
        var found = d.FindBin()
        var s = d.Start([found])
        var buf = bufadd('diffable://people')
        bufload(buf)
        d.Attach(s, 'people', buf)
        d.Request(s, 'apply', {source: 'people', sections: [{id: 'list', items: [
              {id: 'grace', content: {text: 'Grace Elizabeth'}},
              {id: 'liam', content: {text: 'Liam Thomas'}}]}]})
        d.Request(s, 'search', {source: 'people', query: 'gr'})
        var lines = getbufline(buf, 1, '$')
        d.Stop(s)
        writefile([json_encode({found: found, lines: lines})], '\(report)')
        qall!
        """
    }

    @Test func packagesInstallAndRunWithoutTheToolchain() throws {
        let python3 = try ClientTests.requirePython()
        let node = try Self.tool("node"), npm = try Self.tool("npm"), nvim = try Self.tool("nvim")
        let vim = try Self.tool("vim"), ldd = try Self.tool("ldd"), tar = try Self.tool("tar")
        let version = try Self.serverVersion()
        let fm = FileManager.default
        let temp = fm.temporaryDirectory.appendingPathComponent("diffable-package-\(UUID().uuidString)")
        let home = temp.appendingPathComponent("home"), dist = temp.appendingPathComponent("dist")
        try fm.createDirectory(at: home, withIntermediateDirectories: true)
        defer { try? fm.removeItem(at: temp) }
        var timings: [String] = []

        // The packages, from a static debug build.
        var toolEnvironment = ProcessInfo.processInfo.environment
        toolEnvironment["npm_config_cache"] = temp.appendingPathComponent("npm-cache").path
        toolEnvironment["DIFFABLE_BIN"] = nil
        let packaged = try Self.require("protocol/tools/package", python3,
                                        ["protocol/tools/package", "--configuration", "debug", "--out", dist.path],
                                        in: Self.root, environment: toolEnvironment, timeout: 1800)
        timings.append(String(format: "package %.0f s", packaged.seconds))
        let made = try fm.contentsOfDirectory(atPath: dist.path).sorted()
        let archiveName = "diffable-\(version)-linux-x86_64.tar.gz"
        let wheelName = try #require(made.first { $0.hasPrefix("diffable-\(version)-py3-none-manylinux_2_") && $0.hasSuffix("_x86_64.whl") },
                                     "no wheel of version \(version) in \(made)")
        let npmName = "diffable-client-\(version)-linux-x64.tgz"
        #expect(made == [archiveName, archiveName + ".sha256", wheelName, wheelName + ".sha256", npmName, npmName + ".sha256"].sorted(),
                "dist holds \(made)")
        let sums = try Self.run(try Self.tool("sha256sum"), ["-c", archiveName + ".sha256", wheelName + ".sha256", npmName + ".sha256"],
                                in: dist, environment: Self.bare(nil, home: home), timeout: 120)
        #expect(sums.status == 0, "sha256sum -c:\n\(sums.output)")

        // The archive: the daemon needs only the C library; the editor plugins beside it find it.
        let archive = temp.appendingPathComponent("archive")
        try fm.createDirectory(at: archive, withIntermediateDirectories: true)
        try Self.require("tar -xzf", tar, ["-xzf", dist.appendingPathComponent(archiveName).path], in: archive,
                         environment: Self.bare(nil, home: home))
        let top = archive.appendingPathComponent("diffable-\(version)-linux-x86_64")
        let daemon = top.appendingPathComponent("bin/diffable")
        let libraries = try Self.require("ldd", ldd, [daemon.path], in: temp, environment: Self.bare(nil, home: home))
        let cLibrary: Set<String> = ["linux-vdso.so.1", "ld-linux-x86-64.so.2", "libc.so.6", "libm.so.6", "libdl.so.2",
                                     "libpthread.so.0", "librt.so.1", "libutil.so.1", "libgcc_s.so.1"]
        let loaded = libraries.output.split(separator: "\n").compactMap { line in
            line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map { String($0.split(separator: "/").last ?? $0) }
        }
        #expect(!loaded.isEmpty && Set(loaded).isSubset(of: cLibrary),
                "the packaged daemon loads more than the C library:\n\(libraries.output)")
        let said = try Self.require("bin/diffable --version", daemon, ["--version"], in: temp, environment: Self.bare(nil, home: home))
        #expect(said.output == "diffable \(version)\n")

        // Each plugin through a package folder linked to the archive's, as plugin managers link them.
        let editorEnvironment = Self.bare(nil, home: home)
        let nvimPackage = home.appendingPathComponent(".local/share/nvim/site/pack/diffable/start/diffable")
        let vimPackage = home.appendingPathComponent(".vim/pack/diffable/start/diffable")
        for (link, target) in [(nvimPackage, "nvim"), (vimPackage, "vim")] {
            try fm.createDirectory(at: link.deletingLastPathComponent(), withIntermediateDirectories: true)
            try fm.createSymbolicLink(at: link, withDestinationURL: top.appendingPathComponent(target))
        }
        let nvimScript = temp.appendingPathComponent("session.lua")
        try Self.nvimSession.write(to: nvimScript, atomically: true, encoding: .utf8)
        let nvimRun = try Self.require("nvim with the archive's plugin", nvim,
                                       ["--headless", "-u", "NONE", "-i", "NONE", "-n", "--cmd", "set rtp+=" + nvimPackage.path,
                                        "-c", "luafile " + nvimScript.path, "-c", "qa!"],
                                       in: temp, environment: editorEnvironment, timeout: 120)
        let nvimResult = try Self.lastJSON(nvimRun, "the Neovim session")
        let realDaemon = daemon.resolvingSymlinksInPath().path
        #expect(nvimResult["found"] as? String == realDaemon, "Neovim's find_bin: \(nvimRun.output)")
        #expect(nvimResult["lines"] as? [String] == ["Grace Elizabeth"], "Neovim's buffer: \(nvimRun.output)")
        #expect(nvimResult["status"] as? Int == 0, "Neovim's session: \(nvimRun.output)")

        let vimReport = temp.appendingPathComponent("vim.json"), vimScript = temp.appendingPathComponent("session.vim")
        try Self.vimSession(vimPackage.appendingPathComponent("plugin/diffable.vim").path, report: vimReport.path)
            .write(to: vimScript, atomically: true, encoding: .utf8)
        let vimRun = try Self.run(vim, ["-Nu", "NONE", "-i", "NONE", "-es", "-S", vimScript.path], in: temp,
                                  environment: editorEnvironment, timeout: 120)
        let vimOutput = (try? String(contentsOf: vimReport, encoding: .utf8)) ?? ""
        let vimResult = try Self.lastJSON(Step(status: vimRun.status, output: vimOutput, seconds: 0),
                                          "the Vim session (vim exit \(vimRun.status), output: \(vimRun.output))")
        #expect(vimResult["found"] as? String == realDaemon, "Vim's FindBin: \(vimOutput)")
        #expect(vimResult["lines"] as? [String] == ["Grace Elizabeth"], "Vim's buffer: \(vimOutput)")

        // The wheel, in a fresh venv.
        let venv = temp.appendingPathComponent("venv"), venvBin = venv.appendingPathComponent("bin")
        // made with the test's own environment: python3 may be a shim (pyenv) that needs it
        let madeVenv = try Self.require("python3 -m venv", python3, ["-m", "venv", venv.path], in: temp,
                                        environment: toolEnvironment)
        let installed = try Self.require("pip install the wheel", venvBin.appendingPathComponent("pip"),
                                         ["install", "--no-index", "--disable-pip-version-check", "-q",
                                          dist.appendingPathComponent(wheelName).path],
                                         in: temp, environment: Self.bare(venvBin, home: home))
        timings.append(String(format: "venv + pip install %.0f s", madeVenv.seconds + installed.seconds))
        let pyScript = temp.appendingPathComponent("session.py")
        try Self.pythonSession.write(to: pyScript, atomically: true, encoding: .utf8)
        let work = temp.appendingPathComponent("work")
        try fm.createDirectory(at: work, withIntermediateDirectories: true)
        let bundled = venvBin.appendingPathComponent("diffable").path
        for (label, bin) in [("venv on PATH", venvBin), ("venv not on PATH", nil)] as [(String, URL?)] {
            let session = try Self.require("the Python session (\(label))", venvBin.appendingPathComponent("python"),
                                           [pyScript.path], in: work, environment: Self.bare(bin, home: home), timeout: 120)
            let result = try Self.lastJSON(session, "the Python session")
            #expect(result["found"] as? [String] == [bundled], "\(label): diffable.find_daemon(): \(session.output)")
            #expect(result["version"] as? String == version && result["served"] as? String == version,
                    "\(label): versions: \(session.output)")
            #expect(result["matches"] as? Int == 1
                    && result["lines"] as? [String] == ["[list] null", "    grace: {\"text\": \"Grace Elizabeth\"}"],
                    "\(label): the search: \(session.output)")
            #expect(result["status"] as? Int == 0, "\(label): the daemon's exit: \(session.output)")
        }
        let env = try Self.tool("env")
        let onPath = try Self.require("diffable --version from the venv's PATH", env, ["diffable", "--version"],
                                      in: work, environment: Self.bare(venvBin, home: home))
        #expect(onPath.output == "diffable \(version)\n")

        // The npm tarball, in a fresh folder.
        let app = temp.appendingPathComponent("app")
        try fm.createDirectory(at: app, withIntermediateDirectories: true)
        var npmEnvironment = Self.bare(node.deletingLastPathComponent(), home: home)
        npmEnvironment["npm_config_cache"] = temp.appendingPathComponent("npm-cache").path
        npmEnvironment["npm_config_update_notifier"] = "false"
        let npmInstalled = try Self.require("npm install the tarball", npm,
                                            ["install", "--offline", "--no-audit", "--no-fund", dist.appendingPathComponent(npmName).path],
                                            in: app, environment: npmEnvironment)
        timings.append(String(format: "npm install %.0f s", npmInstalled.seconds))
        let nodeScript = app.appendingPathComponent("session.mjs")
        try Self.nodeSession.write(to: nodeScript, atomically: true, encoding: .utf8)
        let moduleBin = app.appendingPathComponent("node_modules/.bin")
        let nodeRun = try Self.require("the Node session", node, [nodeScript.path], in: app,
                                       environment: Self.bare(moduleBin, home: home), timeout: 120)
        let nodeResult = try Self.lastJSON(nodeRun, "the Node session")
        #expect(nodeResult["found"] as? [String] == [app.appendingPathComponent("node_modules/diffable-client/bin/diffable").path],
                "findDaemon(): \(nodeRun.output)")
        #expect(nodeResult["version"] as? String == version && nodeResult["served"] as? String == version,
                "versions: \(nodeRun.output)")
        #expect(nodeResult["matches"] as? Int == 1
                && nodeResult["lines"] as? [String] == ["[list] null", "    grace: {\"text\":\"Grace Elizabeth\"}"],
                "the search: \(nodeRun.output)")
        let binLink = try Self.require("diffable --version from node_modules/.bin", env, ["diffable", "--version"],
                                       in: app, environment: Self.bare(moduleBin, home: home))
        #expect(binLink.output == "diffable \(version)\n")
        print("PackageTests: " + timings.joined(separator: ", "))
    }
}
