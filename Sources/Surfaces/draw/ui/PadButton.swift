/// A rectangle the person can press (the drawing window's "Use password instead"), in window pixels.
struct PadButton {
    let x: Int32
    let y: Int32
    let width: Int32
    let height: Int32

    func contains(_ point: (x: Int32, y: Int32)) -> Bool {
        point.x >= x && point.y >= y && point.x - x < width && point.y - y < height
    }
}
