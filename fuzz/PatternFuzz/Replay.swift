import Glibc

/// The plain build's main: runs every file named (directories recursively) once through a target.
enum Replay {
    static func main() {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3, let target = FuzzTarget.named(arguments[1]) else {
            let names = FuzzTarget.allCases.map { $0.name }.joined(separator: "|")
            print("usage: PatternFuzz \(names) FILE|DIR...  (the libFuzzer build: make fuzz)")
            exit(2)
        }
        if target.needsRoot && geteuid() != 0 {
            print("PatternFuzz: the \(target.name) target needs root (the store refuses files not owned by root)")
            exit(2)
        }
        var total = 0
        for path in arguments[2...] { total += replay(path, target) }
        print("PatternFuzz: replayed \(total) inputs through \(target.name), no property broken")
        exit(0)
    }

    /// Runs one file, or every file under a directory; returns how many ran.
    static func replay(_ path: String, _ target: FuzzTarget) -> Int {
        var info = stat()
        guard stat(path, &info) == 0 else {
            print("PatternFuzz: cannot read \(path)")
            exit(1)
        }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            guard let directory = opendir(path) else { return 0 }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) {
                    String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
                }
                if !name.hasPrefix(".") { names.append(name) }
            }
            var count = 0
            for name in names.sorted() { count += replay(path + "/" + name, target) }
            return count
        }
        guard let file = fopen(path, "rb") else { return 0 }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = fread(&chunk, 1, chunk.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        bytes.withUnsafeBufferPointer { target.run($0) }
        return 1
    }
}
