import Foundation
import DiffableProtocol

/// Real-world corpora for the fuzzy picker rows (`fuzzy.*`): the paths of
/// this machine's file system, and people's names of realistic variety.
/// Synthetic lines of ~24 bytes from a few dozen words hide what makes a
/// picker slow: long texts, long shared prefixes, and queries that match
/// most lines.
enum Corpora {
    /// The roots the file system's paths are repeated under.
    static let roots = ["", "/srv/mirror-a", "/home/dev/snapshots/2026-11"]

    /// Every path `find / -xdev` prints on this machine (paths holding a
    /// control character, which would break fzf's one-line-per-item input,
    /// left out), sorted (`String` order: bytes for ASCII), then repeated under `roots`
    /// until there are `count`. `DIFFABLE_BENCH_PATHS=FILE` reads the paths
    /// from a file (one per line) instead of running `find`, so that runs
    /// on a changing file system can compare the same lines.
    /// - Complexity: O(paths log paths) plus the `find`.
    static func fileSystemPaths(_ count: Int) throws -> [String] {
        let listing: String
        if let file = ProcessInfo.processInfo.environment["DIFFABLE_BENCH_PATHS"] {
            listing = try String(contentsOfFile: file, encoding: .utf8)
        } else {
            let find = Process()
            find.executableURL = URL(fileURLWithPath: "/usr/bin/find")
            find.arguments = ["/", "-xdev"]
            let out = Pipe()
            find.standardOutput = out
            find.standardError = FileHandle.nullDevice
            try find.run()
            let data = out.fileHandleForReading.readDataToEndOfFile()
            find.waitUntilExit()
            listing = String(decoding: data, as: UTF8.self)
        }
        var paths = listing.split(separator: "\n", omittingEmptySubsequences: true)
            .filter { !$0.utf8.contains { $0 < 0x20 || $0 == 0x7F } }
            .map(String.init)
        paths.sort()
        guard !paths.isEmpty else { return [] }
        var lines: [String] = []
        lines.reserveCapacity(count)
        outer: for root in roots {
            for path in paths {
                if lines.count == count { break outer }
                lines.append(root + path)
            }
        }
        // A file system smaller than count / 3: more roots.
        var extra = 1
        while lines.count < count {
            for path in paths where lines.count < count { lines.append("/srv/mirror-\(extra)" + path) }
            extra += 1
        }
        return lines
    }

    /// `count` people's names: first names and surnames of many origins
    /// (accents included), drawn with a Zipf-like skew as real
    /// populations are, some with a middle initial or a second surname,
    /// some written "Surname, First"; seeded, so every run sees the same.
    static func names(_ count: Int) -> [String] {
        let first = firstNames.split(separator: " ").map(String.init)
        let last = surnames.split(separator: " ").map(String.init)
        var rng = SplitMix64(seed: 0x4E41_4D45)
        func uniform(_ n: Int) -> Int { Int(truncatingIfNeeded: rng.next() >> 11) % n }
        // Zipf-like: the k-th most common of n with weight ~ 1 / (k + 8).
        func skewed(_ n: Int) -> Int {
            let u = Double(rng.next() >> 11) / Double(1 << 53)
            let k = Int(exp(u * log(Double(n + 8))) - 8)
            return min(max(k, 0), n - 1)
        }
        let initials = Array("ABCDEFGHIJKLMNOPRSTW")
        var out: [String] = []
        out.reserveCapacity(count)
        for _ in 0..<count {
            let given = first[skewed(first.count)]
            var family = last[skewed(last.count)]
            let shape = uniform(100)
            if shape < 8 { family += "-" + last[skewed(last.count)] }
            if shape >= 8 && shape < 20 {
                out.append("\(given) \(initials[uniform(initials.count)]). \(family)")
            } else if shape >= 20 && shape < 26 {
                out.append("\(family), \(given)")
            } else {
                out.append("\(given) \(family)")
            }
        }
        return out
    }

    static let firstNames = """
        James Mary John Patricia Robert Jennifer Michael Linda William Elizabeth David Barbara Richard Susan Joseph \
        Jessica Thomas Sarah Charles Karen Christopher Lisa Daniel Nancy Matthew Betty Anthony Margaret Mark Sandra \
        Donald Ashley Steven Kimberly Paul Emily Andrew Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian \
        Dorothy George Melissa Timothy Deborah Ronald Stephanie Edward Rebecca Jason Sharon Jeffrey Laura Ryan \
        Cynthia Jacob Kathleen Gary Amy Nicholas Angela Eric Shirley Jonathan Anna Stephen Brenda Larry Pamela \
        Justin Emma Scott Nicole Brandon Helen Benjamin Samantha Samuel Katherine Gregory Christine Alexander Debra \
        Frank Rachel Patrick Carolyn Raymond Janet Jack Catherine Dennis Maria Jerry Heather Tyler Diane Aaron Ruth \
        José Julie Adam Olivia Henry Joyce Nathan Virginia Douglas Victoria Zachary Kelly Peter Lauren Kyle Christina \
        Ethan Joan Walter Evelyn Noah Judith Jeremy Megan Christian Andrea Keith Cheryl Roger Hannah Terry Jacqueline \
        Gerald Martha Harold Gloria Sean Teresa Austin Ann Carl Sara Arthur Madison Lawrence Frances Dylan Kathryn \
        Jesse Janice Jordan Jean Bryan Abigail Billy Alice Joe Judy Bruce Sophia Gabriel Grace Logan Denise Albert \
        Amber Willie Doris Alan Marilyn Juan Danielle Wayne Beverly Elijah Isabella Randy Theresa Roy Diana Vincent \
        Natalie Ralph Brittany Eugene Charlotte Russell Marie Bobby Kayla Mason Alexis Philip Lori Louis Zoë Chloé \
        Søren Łukasz Jürgen François Agnieszka Björn Dmitri Oksana Hiroshi Yuki Mei Wei Priya Arjun Fatima Omar \
        Aisha Mohammed Ahmed Leila Ingrid Sven Lars Astrid Giulia Marco Luca Francesca Mateo Sofía Lucía Valentina \
        Camila Santiago Thiago Gabriela Beatriz João Inês Tomás Ana Pedro Carmen Pablo Álvaro Noémie Léa Hugo Inès \
        Klaus Heike Ursula Wolfgang Miroslav Zuzana Ondřej Kateřina Nikolai Anastasia Aleksandr Elif Mehmet Ayşe \
        Kwame Ama Chinedu Ngozi Thabo Zanele Kofi Sipho Raj Ananya Vikram Deepika Sanjay Lakshmi Haruto Sakura Jin \
        Minjun Seoyeon Linh Minh Thanh Nguyen Siddharth Tariq Yasmin Rania Karim Dalia
        """

    static let surnames = """
        Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson \
        Anderson Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis \
        Robinson Walker Young Allen King Wright Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera \
        Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz Parker Cruz Edwards Collins Reyes Stewart \
        Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly Howard Ramos Kim \
        Cox Ward Richardson Watson Brooks Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo \
        Sanders Patel Myers Long Ross Foster Jimenez Powell Jenkins Perry Russell Sullivan Bell Coleman Butler \
        Henderson Barnes Gonzales Fisher Vasquez Simmons Romero Jordan Patterson Alexander Hamilton Graham Reynolds \
        Griffin Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis Tran Medina Aguilar Stevens Murray Ford \
        Castro Marshall Owens Harrison Fernandez McDonald Woods Washington Kennedy Wells Vargas Henry Chen Freeman \
        Webb Tucker Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez Silva Shaw Snyder Mason Dixon \
        Muñoz Hunt Hicks Holmes Palmer Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer Rice \
        Schmidt Garza Daniels Ferguson Nichols Stephens Soto Weaver Ryan Gardner Payne Grant Dunn Kelley Spencer \
        Hawkins Arnold Pierce Vazquez Hansen Peters Santos Hart Bradley Knight Elliott Cunningham Duncan Armstrong \
        Müller Schneider Fischer Weber Schäfer Koch Becker Schulz Hoffmann Kowalski Nowak Wiśniewski Wójcik \
        Kowalczyk Novák Svoboda Dvořák Horváth Nagy Tóth Szabó Popescu Ionescu Ivanov Smirnov Kuznetsov Popov \
        Petrov Sokolov Yilmaz Kaya Demir Şahin Çelik Andersson Johansson Karlsson Nilsson Eriksson Larsen Jensen \
        Nielsen Pedersen Hansen Korhonen Virtanen Mäkinen Rossi Russo Ferrari Esposito Bianchi Romano Colombo \
        Ricci Marino Greco Bruno Gallo Conti Dubois Durand Lefèvre Moreau Laurent Girard Bonnet Mercier Lambert \
        Fontaine Rousseau Costa Oliveira Pereira Alves Ferreira Gonçalves Rodrigues Sato Suzuki Takahashi Tanaka \
        Watanabe Ito Yamamoto Nakamura Kobayashi Wang Li Zhang Liu Yang Huang Zhao Wu Zhou Xu Sun Ma Zhu Hu Guo \
        Singh Kumar Sharma Gupta Reddy Rao Iyer Nair Khan Ali Hussain Ahmed Rahman Hassan Ibrahim Mahmoud Haddad \
        Okafor Okonkwo Mensah Owusu Nkosi Dlamini Mwangi Otieno Park Choi Jung Kang Cho Yoon Jang Lim Pham Hoang \
        Phan Vu Dang Bui Do Ho Ngo Duong Ly O'Brien O'Connor McCarthy Byrne Walsh Doyle Gallagher MacLeod Fraser
        """
}
