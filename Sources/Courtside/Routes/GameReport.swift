import CourtsideModel
import CourtsideNet
import CourtsideViewModels

/// The read-only reports of one game (docs/protocol.md, "Reports"): the play-by-play and the box score, as JSON or
/// as CSV for a spreadsheet.
enum GameReport: String {
    case plays
    case playsCSV = "plays.csv"
    case boxScore = "boxscore"
    case boxScoreCSV = "boxscore.csv"

    /// The report of the game as its view model shows it at `now` (run on the game's loop).
    func response(_ viewModel: GameScoreboardEditorViewModel, now: Timestamp) -> HTTPResponse {
        let game = viewModel.game
        switch self {
        case .plays:
            return APIResponse.json(.ok, PlayByPlay(game: game, rows: viewModel.plays).json)
        case .playsCSV:
            return csv(PlayByPlay(game: game, rows: viewModel.plays).csv, name: "\(game.id)-plays.csv")
        case .boxScore:
            return APIResponse.json(.ok, BoxScore(game: game, at: now).json)
        case .boxScoreCSV:
            return csv(BoxScore(game: game, at: now).csv, name: "\(game.id)-boxscore.csv")
        }
    }

    /// RFC 4180 §3 registers `text/csv` with the `header` parameter; the file name lets a browser save it.
    private func csv(_ table: CSVTable, name: String) -> HTTPResponse {
        // Game ids are generated (`game-N`) or validated on restore, so the name needs no quoting beyond this.
        let safeName = String(name.unicodeScalars.filter { $0.isASCII && $0 != "\"" && $0 != "\\" }.map(Character.init))
        return HTTPResponse(
            status: .ok,
            headers: [
                "Content-Type": "text/csv; charset=utf-8; header=present",
                "Content-Disposition": "attachment; filename=\"\(safeName)\"",
            ],
            body: table.bytes)
    }
}
