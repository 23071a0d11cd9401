"""Virtual points in a TRF file: TRF-2026 ``250`` lines written and read, JaVaFo's ``XXA`` read."""

from clubrating.interchange.formats.trf.acceleration import acceleration_lines, read_accelerations


def test_250_lines_in_the_columns_of_trf_2026():
    lines = acceleration_lines({p: {1: 1.0, 2: 1.0, 3: 1.0, 4: 0.5, 5: 0.5} for p in range(1, 83)})
    assert lines == ["250       1.0   1   3    1   82", "250       0.5   4   5    1   82"]
    # columns 10-13 game points, 15-17 / 19-21 rounds, 23-26 / 28-31 players
    assert lines[0][9:13] == " 1.0" and lines[0][14:17] == "  1" and lines[0][18:21] == "  3"
    assert lines[0][22:26] == "   1" and lines[0][27:31] == "  82"


def test_written_lines_read_back_identically():
    accelerations = {1: {1: 1.0, 2: 0.5}, 2: {1: 1.0, 2: 0.5}, 4: {1: 1.0, 2: 0.5}, 5: {2: 1.0}}
    lines = acceleration_lines(accelerations)
    assert lines == ["250       1.0   1   1    1    2", "250       0.5   2   2    1    2",
                     "250       1.0   1   1    4    4", "250       0.5   2   2    4    4",
                     "250       1.0   2   2    5    5"]
    assert read_accelerations(lines) == accelerations


def test_xxa_lines_are_read_per_round():
    assert read_accelerations(["XXA    3  1.0  1.0  0.5  0.0"]) == {3: {1: 1.0, 2: 1.0, 3: 0.5}}


def test_nothing_to_read():
    assert read_accelerations(["XXR 9", "250 bad", "XXA abc"]) == {}
    assert acceleration_lines({}) == []
