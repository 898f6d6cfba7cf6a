package dev.sparseprof.calibrate;

/** A case's measured time and the model's prediction with the starting and with the fitted parameters. */
public record CasePrediction(CalibrationCase c, double beforeSeconds, double afterSeconds) {
    public double measuredSeconds() {
        return c.run().medianSeconds();
    }

    public double predictedSeconds(boolean after) {
        return after ? afterSeconds : beforeSeconds;
    }

    /** Signed error in percent of the measured time. */
    public double errorPercent(boolean after) {
        return 100 * (predictedSeconds(after) - measuredSeconds()) / measuredSeconds();
    }
}
